import { judgingTermsOf, storeJudgedAnswers } from '@vt/answers';
import { type PrismaClient, parseUtcDay } from '@vt/db';
import type { CollectAnswerJobData } from '@vt/queue';
import type { JobOutcome } from '@vt/service-runtime';
import { judgeAnswer } from '@vt/verdict';
import type { PlatformClient } from '../platforms/index.ts';

export type CollectSkip = 'already_collected' | 'prompt_gone' | 'prompt_paused' | 'property_not_collected';

/**
 * Asks one platform one prompt for one UTC day, judges the answer and stores it. Never asks twice
 * for the same (property, prompt, platform, day): a stored answer ends the job first, so a
 * retried, duplicated or re-enqueued job costs one query. Only active prompts of properties on an
 * active paid plan are asked. A platform failure throws (PlatformError) for the queue to retry.
 */
export async function collectAnswer(
  db: PrismaClient,
  client: PlatformClient,
  data: CollectAnswerJobData,
  now: () => Date = () => new Date(),
): Promise<JobOutcome<CollectSkip>> {
  const day = parseUtcDay(data.day) as Date;
  const key = { propertyId: data.propertyId, promptId: data.promptId, model: client.platform, day };
  if (await db.response.findUnique({ where: { propertyId_promptId_model_day: key }, select: { id: true } })) {
    return { applied: false, reason: 'already_collected' };
  }
  const prompt = await db.prompt.findFirst({
    where: { id: data.promptId, propertyId: data.propertyId },
    include: { property: { select: { plan: true, subscriptionStatus: true } } },
  });
  if (!prompt) return { applied: false, reason: 'prompt_gone' };
  if (!prompt.active) return { applied: false, reason: 'prompt_paused' };
  if (prompt.property.plan === 'free' || prompt.property.subscriptionStatus !== 'active') {
    return { applied: false, reason: 'property_not_collected' };
  }
  const answer = await client.ask(prompt.text);
  const terms = await judgingTermsOf(db, data.propertyId);
  if (!terms) return { applied: false, reason: 'prompt_gone' }; // the property went while the platform answered
  const verdict = judgeAnswer({ answer: answer.markdown, citations: answer.citations, ...terms });
  await db.$transaction((tx) =>
    storeJudgedAnswers(tx, [{ ...key, text: answer.markdown, verdict, collectedAt: now() }]),
  );
  return { applied: true };
}
