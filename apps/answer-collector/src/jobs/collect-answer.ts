import { judgingTermsOf, storeJudgedAnswers } from '@vt/answers';
import { type PrismaClient, parseUtcDay } from '@vt/db';
import type { CollectAnswerJobData } from '@vt/queue';
import type { JobOutcome } from '@vt/service-runtime';
import { judgeAnswer } from '@vt/verdict';
import { type AnswerLocation, type PlatformClient, PlatformError } from '../platforms/index.ts';
import { takeRequest } from './request-budget.ts';

export type CollectSkip =
  | 'already_collected'
  | 'prompt_gone'
  | 'prompt_paused'
  | 'property_not_collected'
  | 'skipped_budget';

export interface CollectAnswerOptions {
  now?: () => Date;
  /** The platform's requests per UTC day, shared by every replica; absent: no limit. */
  dailyRequests?: number;
}

/**
 * Asks one platform one prompt for one UTC day, judges the answer and stores it. Never asks twice
 * for the same (property, prompt, platform, day): a stored answer ends the job first, so a
 * retried, duplicated or re-enqueued job costs one query. Only active prompts of properties on an
 * active paid plan are asked, each with its country and language (the prompt's, else the
 * property's), and only while the platform's daily budget lasts: past it the question is skipped,
 * not retried. A platform failure throws (PlatformError) for the queue to retry.
 */
export async function collectAnswer(
  db: PrismaClient,
  client: PlatformClient,
  data: CollectAnswerJobData,
  options: CollectAnswerOptions = {},
): Promise<JobOutcome<CollectSkip>> {
  const now = options.now ?? (() => new Date());
  const day = parseUtcDay(data.day) as Date;
  const key = { propertyId: data.propertyId, promptId: data.promptId, model: client.platform, day };
  if (await db.response.findUnique({ where: { propertyId_promptId_model_day: key }, select: { id: true } })) {
    return { applied: false, reason: 'already_collected' };
  }
  const prompt = await db.prompt.findFirst({
    where: { id: data.promptId, propertyId: data.propertyId },
    include: { property: { select: { plan: true, subscriptionStatus: true, country: true, language: true } } },
  });
  if (!prompt) return { applied: false, reason: 'prompt_gone' };
  if (!prompt.active) return { applied: false, reason: 'prompt_paused' };
  if (prompt.property.plan === 'free' || prompt.property.subscriptionStatus !== 'active') {
    return { applied: false, reason: 'property_not_collected' };
  }
  // Taken last, just before the request: a question that is not sent costs nothing.
  if (!(await takeRequest(db, client.platform, options.dailyRequests, now()))) {
    return { applied: false, reason: 'skipped_budget' };
  }
  const country = prompt.country ?? prompt.property.country;
  const language = prompt.language ?? prompt.property.language;
  const location: AnswerLocation = { ...(country ? { country } : {}), ...(language ? { language } : {}) };
  const answer = await client.ask(prompt.text, Object.keys(location).length ? { location } : {});
  const terms = await judgingTermsOf(db, data.propertyId);
  if (!terms) return { applied: false, reason: 'prompt_gone' }; // the property went while the platform answered
  const verdict = judgeAnswer({ answer: answer.markdown, citations: answer.citations, ...terms });
  await db.$transaction((tx) =>
    storeJudgedAnswers(tx, [
      {
        ...key,
        text: answer.markdown,
        verdict,
        collectedAt: now(),
        country,
        language,
        // A partial answer is kept (asking again costs as much and stops at the same limit), marked.
        truncated: answer.truncated ?? null,
      },
    ]),
  );
  return { applied: true };
}

/** The first retry's wait without a Retry-After; each later one doubles it. */
const FIRST_RETRY_MS = 30_000;

/**
 * How long to wait before asking again after a retryable failure. A platform that said when
 * (Retry-After) is not asked sooner: its seconds, plus up to a tenth more so replicas that were
 * told alike do not return at once. Otherwise 30 s doubling per attempt, less up to half at random.
 */
export function retryDelayMs(err: unknown, attemptsMade: number, random: () => number = Math.random): number {
  if (err instanceof PlatformError && err.retryAfterSeconds !== undefined) {
    const asked = err.retryAfterSeconds * 1000;
    return Math.ceil(asked + asked * 0.1 * random());
  }
  const base = FIRST_RETRY_MS * 2 ** attemptsMade;
  return Math.round(base * (1 - 0.5 * random()));
}
