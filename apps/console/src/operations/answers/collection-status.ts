import { type ConsoleAnswer, platformName } from '@vt/contracts/console';
import { type AnswerCollectionRun, formatUtcDay, type PrismaClient, type Property, utcDay } from '@vt/db';
import type { CollectNow } from '../../collection/collect-now.ts';

type CollectionStatus = ConsoleAnswer<'getCollection'>;

/** Why a property has nothing to ask, in plain words; null when it has. */
async function nothingToAsk(db: PrismaClient, property: Property): Promise<string | null> {
  if (property.plan === 'free') return 'Answers are collected for paid plans only; this property is on the Free plan.';
  if (property.subscriptionStatus !== 'active') return 'Answers are collected while the subscription is active.';
  const prompts = await db.prompt.count({ where: { propertyId: property.id, active: true } });
  if (prompts === 0) return 'There is no active prompt to ask: add one under Brand and prompts.';
  return null;
}

/** No platform key set: nothing is asked until the operator sets one. */
export const NO_PLATFORM_KEY =
  'No AI platform key is set on this deployment, so no answers are collected. Answers start once the operator sets one.';

/**
 * What the collector last reported, the property's latest run on each platform, and whether a
 * collection can start now (and if not, why): the answers page's collection panel.
 */
export async function collectionStatus(
  db: PrismaClient,
  collectNow: CollectNow,
  property: Property,
  now: Date = new Date(),
): Promise<CollectionStatus & { nothingToAsk: string | null }> {
  const today = utcDay(now);
  const [platforms, runs, availableAt, nothing, usage] = await Promise.all([
    db.answerPlatformStatus.findMany(),
    // The latest run per platform, from the (property, platform, started_at DESC) index: Prisma's
    // `distinct` would read every run of the property and pick in memory.
    db.$queryRaw<Omit<AnswerCollectionRun, 'propertyId'>[]>`
      SELECT DISTINCT ON (platform) id, platform, day, trigger, started_at AS "startedAt",
        finished_at AS "finishedAt", questions, stored, skipped, failed, retries, last_error AS "lastError"
      FROM answer_collection_runs WHERE property_id = ${property.id}::uuid
      ORDER BY platform, started_at DESC`,
    collectNow.availableAt(property.id),
    nothingToAsk(db, property),
    // The collectors' own counter: what they checked the budget against is what is shown.
    db.answerPlatformUsage.findMany({ where: { day: today } }),
  ]);
  const usedToday = new Map(usage.map((u) => [u.platform, u]));
  const order = ['chatgpt', 'perplexity', 'claude', 'gemini', 'copilot'];
  platforms.sort((a, b) => order.indexOf(a.platform) - order.indexOf(b.platform));
  const latest = new Map(runs.map((r) => [r.platform, r]));
  const first = platforms[0];
  const configured = platforms.some((p) => p.configured);
  const reason = !first
    ? 'The answer collector has not reported yet: it may not be running.'
    : !configured
      ? NO_PLATFORM_KEY
      : (nothing ?? (availableAt ? 'A collection was started within the hour.' : null));
  return {
    reported: first !== undefined,
    collectAtUtc: first?.collectAtUtc ?? null,
    nextRunAt: first ? first.nextRunAt.toISOString() : null,
    reportedAt: first ? first.reportedAt.toISOString() : null,
    platforms: platforms.map((p) => {
      const run = latest.get(p.platform);
      return {
        platform: p.platform,
        name: platformName(p.platform),
        configured: p.configured,
        reason: p.reason,
        today: {
          day: formatUtcDay(today),
          requests: usedToday.get(p.platform)?.requests ?? 0,
          budget: p.dailyRequestBudget,
          skippedBudget: usedToday.get(p.platform)?.skippedBudget ?? 0,
        },
        lastRun: run
          ? {
              trigger: run.trigger === 'manual' ? 'manual' : 'daily',
              day: formatUtcDay(run.day),
              startedAt: run.startedAt.toISOString(),
              finishedAt: run.finishedAt?.toISOString() ?? null,
              questions: run.questions,
              stored: run.stored,
              skipped: run.skipped,
              failed: run.failed,
              retries: run.retries,
              lastError: run.lastError,
            }
          : null,
      };
    }),
    collectNow: { allowed: reason === null, reason, availableAt: availableAt?.toISOString() ?? null },
    nothingToAsk: nothing,
  };
}
