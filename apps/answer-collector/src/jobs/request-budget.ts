import type { AiPlatformId } from '@vt/attribution';
import type { AnswerCollectorConfig } from '@vt/config';
import { formatUtcDay, type PrismaClient, utcDay } from '@vt/db';

// Each platform's daily request budget, shared by every collector replica: one row per platform
// and UTC day in answer_platform_usage, moved by one statement per request, so the last request goes
// to one replica only. Postgres rather than Redis: the console reads the same row to show
// spend against budget, and a Redis flush must not hand out a second day's worth of requests.

/** What a deployment allows one platform: requests per UTC day and questions in flight (unset: no limit). */
export interface PlatformLimits {
  dailyRequests?: number;
  concurrency?: number;
}

const PREFIX: Partial<Record<AiPlatformId, 'OPENAI' | 'PERPLEXITY' | 'ANTHROPIC' | 'GEMINI'>> = {
  chatgpt: 'OPENAI',
  perplexity: 'PERPLEXITY',
  claude: 'ANTHROPIC',
  gemini: 'GEMINI',
};

/** A platform's limits from the config's <PREFIX>_DAILY_REQUESTS and <PREFIX>_CONCURRENCY. */
export function platformLimits(config: AnswerCollectorConfig, platform: AiPlatformId): PlatformLimits {
  const prefix = PREFIX[platform];
  if (!prefix) return {};
  return { dailyRequests: config[`${prefix}_DAILY_REQUESTS`], concurrency: config[`${prefix}_CONCURRENCY`] };
}

/**
 * Takes one request from `platform`'s budget for the UTC day of `now`: true when it may be sent
 * (counted), false when the day's budget is spent (the question is counted as skipped_budget
 * instead). Without a budget every request is taken, and counted, for the console.
 */
export async function takeRequest(
  db: PrismaClient,
  platform: string,
  dailyRequests: number | undefined,
  now: Date,
): Promise<boolean> {
  const day = formatUtcDay(utcDay(now));
  const taken = await db.$queryRaw<{ requests: number }[]>`
    INSERT INTO answer_platform_usage AS u (platform, day, requests) VALUES (${platform}, ${day}::date, 1)
    ON CONFLICT (platform, day) DO UPDATE SET requests = u.requests + 1
      WHERE ${dailyRequests ?? null}::int IS NULL OR u.requests < ${dailyRequests ?? null}::int
    RETURNING requests`;
  if (taken.length) return true;
  await db.$executeRaw`
    UPDATE answer_platform_usage SET skipped_budget = skipped_budget + 1
    WHERE platform = ${platform} AND day = ${day}::date`;
  return false;
}

/**
 * Gives back a request `takeRequest` took at `takenAt`, to the same UTC day: one the platform
 * refused with 429 (rate limited). Nothing was answered or charged, and the question is asked again
 * once the platform's pause has passed, taking its request then: without this a rate-limited
 * question would count against the day's budget twice.
 */
export async function returnRequest(db: PrismaClient, platform: string, takenAt: Date): Promise<void> {
  const day = formatUtcDay(utcDay(takenAt));
  await db.$executeRaw`
    UPDATE answer_platform_usage SET requests = requests - 1
    WHERE platform = ${platform} AND day = ${day}::date AND requests > 0`;
}
