import type { AiPlatformId } from '@vt/attribution';
import { type PrismaClient, parseUtcDay } from '@vt/db';
import type { CollectAnswerJobData } from '@vt/queue';
import type { JobAttempt } from '@vt/service-runtime';

// What the collector publishes for the console (another process) to show: which platforms it
// collects from and when the daily run is next (answer_platform_status), and what each run did
// per property and platform (answer_collection_runs). Never a key: only whether one is set.

/** The next time `hhmm` (UTC) strikes after `now`: the daily run's next start. */
export function nextDailyRun(hhmm: string, now: Date): Date {
  const [hours = 0, minutes = 0] = hhmm.split(':').map(Number);
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours, minutes));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

export interface PlatformsFound {
  clients: readonly { platform: AiPlatformId; model: string }[];
  skipped: readonly { platform: AiPlatformId; reason: string }[];
}

/** Writes every platform's row: collected (its model and daily budget) or skipped (and why), and the next daily run. */
export async function publishPlatformStatus(
  db: PrismaClient,
  found: PlatformsFound,
  collectAtUtc: string,
  now: Date,
  /** Each collected platform's daily request budget (null or absent: no limit). */
  budgets: Readonly<Record<string, number | null>> = {},
): Promise<void> {
  const common = { collectAtUtc, nextRunAt: nextDailyRun(collectAtUtc, now), reportedAt: now };
  const rows = [
    ...found.clients.map((c) => ({
      platform: c.platform,
      configured: true,
      model: c.model,
      reason: null,
      dailyRequestBudget: budgets[c.platform] ?? null,
    })),
    ...found.skipped.map((s) => ({
      platform: s.platform,
      configured: false,
      model: null,
      reason: s.reason,
      dailyRequestBudget: null,
    })),
  ].map((row) => ({ ...row, ...common }));
  await db.$transaction(
    rows.map((row) => db.answerPlatformStatus.upsert({ where: { platform: row.platform }, create: row, update: row })),
  );
}

/**
 * Opens one run per (property, platform) among `questions` and gives each question its run's id.
 * `trigger`: the daily schedule, or a collection started from the console.
 */
export async function openRuns(
  db: PrismaClient,
  questions: readonly CollectAnswerJobData[],
  trigger: 'daily' | 'manual',
  now: Date,
): Promise<CollectAnswerJobData[]> {
  const groups = new Map<string, CollectAnswerJobData[]>();
  for (const q of questions) {
    const key = `${q.propertyId} ${q.platform}`;
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  const withRuns: CollectAnswerJobData[] = [];
  for (const group of groups.values()) {
    const first = group[0] as CollectAnswerJobData;
    const run = await db.answerCollectionRun.create({
      data: {
        propertyId: first.propertyId,
        platform: first.platform,
        day: parseUtcDay(first.day) as Date,
        trigger,
        startedAt: now,
        questions: group.length,
      },
      select: { id: true },
    });
    withRuns.push(...group.map((q) => ({ ...q, runId: run.id })));
  }
  return withRuns;
}

export type QuestionEnd = 'stored' | 'skipped' | 'failed' | 'retrying';

/** A failed attempt ends its question (failed) when it was the last, or would only fail again; else it is retried. */
export const failedAttemptEnd = (retryable: boolean, attempt: JobAttempt): 'failed' | 'retrying' =>
  !retryable || attempt.made + 1 >= attempt.of ? 'failed' : 'retrying';

/**
 * Counts how one question's attempt ended in its run; the run is finished once every question is
 * stored, skipped or given up. One statement: concurrent workers never lose a count.
 */
export async function countQuestionEnd(
  db: PrismaClient,
  runId: string | undefined,
  end: QuestionEnd,
  error?: string,
): Promise<void> {
  if (!runId) return; // a job queued before runs were counted
  const add = (what: QuestionEnd) => (end === what ? 1 : 0);
  const [stored, skipped, failed, retries] = [add('stored'), add('skipped'), add('failed'), add('retrying')];
  await db.$executeRaw`
    UPDATE answer_collection_runs SET
      stored = stored + ${stored}, skipped = skipped + ${skipped}, failed = failed + ${failed},
      retries = retries + ${retries}, last_error = COALESCE(${error ?? null}::text, last_error),
      finished_at = CASE
        WHEN finished_at IS NULL AND stored + ${stored} + skipped + ${skipped} + failed + ${failed} >= questions THEN now()
        ELSE finished_at END
    WHERE id = ${runId}::uuid`;
}
