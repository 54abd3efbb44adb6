import { judgingTermsOf, storeJudgedAnswers } from '@vt/answers';
import { type PrismaClient, parseUtcDay } from '@vt/db';
import type { CollectAnswerJobData } from '@vt/queue';
import type { JobOutcome } from '@vt/service-runtime';
import { judgeAnswer } from '@vt/verdict';
import { type AnswerLocation, type PlatformClient, PlatformError } from '../platforms/index.ts';
import { returnRequest, takeRequest } from './request-budget.ts';

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
  /**
   * How long the platform is still paused after a 429 (ms; 0 or less: not paused), shared by every
   * replica. Absent: never paused.
   */
  pausedForMs?: () => Promise<number>;
}

/**
 * The platform is paused (it answered 429 with Retry-After a moment ago): the question was not
 * sent, took nothing from the budget and is no attempt; it waits until the pause has passed.
 */
export class PlatformPaused extends Error {
  override name = 'PlatformPaused';
  constructor(readonly remainingMs: number) {
    super(`platform paused for ${remainingMs} ms more`);
  }
}

/**
 * Asks one platform one prompt for one UTC day, judges the answer and stores it. Never asks twice
 * for the same (property, prompt, platform, day): a stored answer ends the job first, so a
 * retried, duplicated or re-enqueued job costs one query. Only active prompts of properties on an
 * active paid plan are asked, each with its country and language (the prompt's, else the
 * property's), and only while the platform's daily budget lasts: past it the question is skipped,
 * not retried. A platform failure throws (PlatformError) for the queue to retry; a 429 first gives
 * its request back to the budget. While the platform is paused after a 429 nothing is sent or
 * taken: PlatformPaused is thrown for the question to wait.
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
  // Checked just before the request, not when the job was fetched: a question fetched while
  // another was being refused must not be sent either.
  const paused = (await options.pausedForMs?.()) ?? 0;
  if (paused > 0) throw new PlatformPaused(paused);
  // Taken last, just before the request: a question that is not sent costs nothing.
  const takenAt = now();
  if (!(await takeRequest(db, client.platform, options.dailyRequests, takenAt))) {
    return { applied: false, reason: 'skipped_budget' };
  }
  const country = prompt.country ?? prompt.property.country;
  const language = prompt.language ?? prompt.property.language;
  const location: AnswerLocation = { ...(country ? { country } : {}), ...(language ? { language } : {}) };
  const answer = await client.ask(prompt.text, Object.keys(location).length ? { location } : {}).catch(async (err) => {
    if (err instanceof PlatformError && err.status === 429) await returnRequest(db, client.platform, takenAt);
    throw err;
  });
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
 * The most a 429 pauses a whole platform: a Retry-After of hours (a daily quota spent) pauses it
 * this long, then one question probes it again, and a new 429 pauses it again.
 */
export const MAX_PLATFORM_PAUSE_MS = 15 * 60_000;

/**
 * How long a platform's 429 pauses every question of that platform, on every replica: its
 * Retry-After, capped at MAX_PLATFORM_PAUSE_MS; without one, the first retry's wait. Null for any
 * other failure (a 5xx or a timeout says nothing about the next question).
 */
export function platformPauseMs(err: unknown): number | null {
  if (!(err instanceof PlatformError) || err.status !== 429) return null;
  const asked = err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : FIRST_RETRY_MS;
  return Math.min(asked, MAX_PLATFORM_PAUSE_MS);
}

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
