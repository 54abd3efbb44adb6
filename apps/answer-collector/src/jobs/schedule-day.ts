import { type PrismaClient, parseUtcDay } from '@vt/db';
import type { CollectAnswerJobData } from '@vt/queue';

/**
 * The questions of one UTC day: every active prompt of every property on an active paid plan (or
 * of `propertyId` only), on every enabled platform, less those already answered that day (a
 * re-run of the schedule, or a restart, enqueues only what is missing).
 */
export async function questionsOfDay(
  db: PrismaClient,
  platforms: readonly string[],
  day: string,
  propertyId?: string,
): Promise<CollectAnswerJobData[]> {
  if (!platforms.length) return [];
  const date = parseUtcDay(day) as Date;
  const rows = await db.$queryRaw<{ property_id: string; prompt_id: string; platform: string }[]>`
    SELECT p.property_id, p.id AS prompt_id, m.platform
    FROM prompts p
    JOIN properties pr ON pr.id = p.property_id
    CROSS JOIN unnest(${[...platforms]}::text[]) AS m(platform)
    WHERE p.active AND pr.plan <> 'free' AND pr.subscription_status = 'active'
      AND (${propertyId ?? null}::uuid IS NULL OR p.property_id = ${propertyId ?? null}::uuid)
      AND NOT EXISTS (
        SELECT 1 FROM responses r
        WHERE r.property_id = p.property_id AND r.prompt_id = p.id AND r.model = m.platform AND r.day = ${date}::date)
    ORDER BY p.property_id, p.id, m.platform`;
  return rows.map((r) => ({ propertyId: r.property_id, promptId: r.prompt_id, platform: r.platform, day }));
}

/** The job id of one question (BullMQ ids hold no colon): the same question of the same day is one job while it exists. */
export const questionJobId = (q: Pick<CollectAnswerJobData, 'promptId' | 'platform' | 'day'>) =>
  `collect-${q.promptId}-${q.platform}-${q.day}`;
