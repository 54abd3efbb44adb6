import type { PrismaClient } from '@vt/db';

export interface AnswerRank {
  /** 1 + the tracked competitors first named before the brand; null when the brand is not named. */
  rank: number | null;
  /** The brand, if named, and each tracked competitor the answer names. */
  brandsNamed: number;
}

/**
 * Each answer's rank of the brand among the brands it names: the order a reader meets them in.
 * Whether a competitor comes before the brand is the mention's `before_brand`, which triggers keep
 * from the stored first-mention positions (the home overview's average rank reads the same flag).
 * One query for a page of answers.
 */
export async function answerRanks(db: PrismaClient, ids: readonly string[]): Promise<Map<string, AnswerRank>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; position: number | null; before: number; named: number }[]>`
    SELECT r.id, r.position,
      count(m.competitor_id) FILTER (WHERE m.before_brand)::int AS before,
      count(m.competitor_id)::int AS named
    FROM responses r
    LEFT JOIN response_competitor_mentions m ON m.response_id = r.id
    WHERE r.id = ANY(${[...ids]}::uuid[])
    GROUP BY r.id, r.position`;
  return new Map(
    rows.map((r) => [
      r.id,
      r.position === null ? { rank: null, brandsNamed: r.named } : { rank: r.before + 1, brandsNamed: r.named + 1 },
    ]),
  );
}
