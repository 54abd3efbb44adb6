import type { PrismaClient } from '@vt/db';
import type { Verdict } from '@vt/verdict';

/** One collected answer with its verdict, ready to store. */
export interface JudgedAnswer {
  propertyId: string;
  promptId: string;
  /** AI platform id (chatgpt, perplexity, claude, gemini, copilot). */
  model: string;
  /** The UTC day it was collected for. */
  day: Date;
  /** The answer's markdown, as collected. */
  text: string;
  verdict: Verdict;
  collectedAt?: Date;
  /** The country and language the question was asked with (null or absent: none given). */
  country?: string | null;
  language?: string | null;
  /**
   * The platform's reason it stopped before the end of its answer (its output token limit); null
   * or absent for a whole answer. A replaced answer takes the new one's, whole or not.
   */
  truncated?: string | null;
  /** A fixed id for a new row (the demo's derived ids); a replaced row keeps its own. */
  id?: string;
}

const keyOf = (propertyId: string, promptId: string, model: string, day: Date) =>
  `${propertyId} ${promptId} ${model} ${day.toISOString().slice(0, 10)}`;

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * Stores answers and their verdicts, one statement per table: an answer already stored for the
 * same (property, prompt, platform, day) is replaced, keeping its id, with its cited sources and
 * competitor mentions. The answer's row carries its cited URLs too, so Postgres renders its
 * /v1/responses list fragment (a generated column) in the same write, and the sources' insert
 * trigger finds nothing to copy. The statement triggers on `responses` keep the daily counts behind
 * /v1/visibility in the same transaction, so /v1 never sees half of a batch. Resolves with how
 * many rows were new and how many replaced.
 */
export async function storeJudgedAnswers(
  tx: Tx,
  batch: readonly JudgedAnswer[],
): Promise<{ inserted: number; replaced: number }> {
  // One row per key: within a batch the last answer for a key wins (Postgres refuses to upsert a row twice in a statement).
  const answers = [...new Map(batch.map((a) => [keyOf(a.propertyId, a.promptId, a.model, a.day), a])).values()];
  if (!answers.length) return { inserted: 0, replaced: 0 };
  const column = <T>(pick: (a: JudgedAnswer) => T) => answers.map(pick);
  const rows = await tx.$queryRaw<
    { id: string; property_id: string; prompt_id: string; model: string; day: Date; inserted: boolean }[]
  >`
    INSERT INTO responses AS r
      (id, property_id, prompt_id, model, day, mentioned, matched_term, position, sentiment, excerpt, text, collected_at,
       source_urls, country, language, truncated)
    SELECT coalesce(x.id, gen_random_uuid()), x.property_id, x.prompt_id, x.model, x.day, x.mentioned, x.matched_term,
      x.position, x.sentiment, x.excerpt, x.text, x.collected_at, ARRAY(SELECT json_array_elements_text(x.source_urls)),
      x.country, x.language, x.truncated
    FROM unnest(
      ${column((a) => a.id ?? null)}::uuid[], ${column((a) => a.propertyId)}::uuid[], ${column((a) => a.promptId)}::uuid[],
      ${column((a) => a.model)}::text[], ${column((a) => a.day)}::date[], ${column((a) => a.verdict.mentioned)}::boolean[],
      ${column((a) => a.verdict.matchedTerm)}::text[], ${column((a) => a.verdict.position)}::int[],
      ${column((a) => a.verdict.sentiment)}::float8[], ${column((a) => a.verdict.excerpt)}::text[],
      ${column((a) => a.text)}::text[], ${column((a) => a.collectedAt ?? new Date())}::timestamptz[],
      ${column((a) => JSON.stringify(a.verdict.sources.map((s) => s.url)))}::json[],
      ${column((a) => a.country ?? null)}::text[], ${column((a) => a.language ?? null)}::text[],
      ${column((a) => a.truncated ?? null)}::text[]
    ) AS x(id, property_id, prompt_id, model, day, mentioned, matched_term, position, sentiment, excerpt, text, collected_at,
      source_urls, country, language, truncated)
    ON CONFLICT (property_id, prompt_id, model, day) DO UPDATE SET
      mentioned = excluded.mentioned, matched_term = excluded.matched_term, position = excluded.position,
      sentiment = excluded.sentiment, excerpt = excluded.excerpt, text = excluded.text, collected_at = excluded.collected_at,
      source_urls = excluded.source_urls, country = excluded.country, language = excluded.language,
      truncated = excluded.truncated
    RETURNING r.id, r.property_id, r.prompt_id, r.model, r.day, (xmax = 0) AS inserted`;
  const idByKey = new Map(rows.map((r) => [keyOf(r.property_id, r.prompt_id, r.model, r.day), r.id]));
  const ids = answers.map((a) => idByKey.get(keyOf(a.propertyId, a.promptId, a.model, a.day)) as string);
  await tx.$executeRaw`DELETE FROM response_sources WHERE response_id = ANY(${ids}::uuid[])`;
  await tx.$executeRaw`DELETE FROM response_competitor_mentions WHERE response_id = ANY(${ids}::uuid[])`;

  const sources = answers.flatMap((a, i) =>
    a.verdict.sources.map((s, ordinal) => ({ responseId: ids[i] as string, ordinal, ...s, a })),
  );
  if (sources.length) {
    const pick = <T>(f: (s: (typeof sources)[number]) => T) => sources.map(f);
    await tx.$executeRaw`
      INSERT INTO response_sources (response_id, ordinal, url, domain, property_id, day, model)
      SELECT * FROM unnest(${pick((s) => s.responseId)}::uuid[], ${pick((s) => s.ordinal)}::int[], ${pick((s) => s.url)}::text[],
        ${pick((s) => s.domain)}::text[], ${pick((s) => s.a.propertyId)}::uuid[], ${pick((s) => s.a.day)}::date[],
        ${pick((s) => s.a.model)}::text[])`;
  }
  const mentions = answers.flatMap((a, i) =>
    a.verdict.competitorMentions.map((m) => ({ responseId: ids[i] as string, ...m, a })),
  );
  if (mentions.length) {
    const pick = <T>(f: (m: (typeof mentions)[number]) => T) => mentions.map(f);
    await tx.$executeRaw`
      INSERT INTO response_competitor_mentions (response_id, competitor_id, position, property_id, day, model)
      SELECT * FROM unnest(${pick((m) => m.responseId)}::uuid[], ${pick((m) => m.competitorId)}::uuid[],
        ${pick((m) => m.position)}::int[], ${pick((m) => m.a.propertyId)}::uuid[], ${pick((m) => m.a.day)}::date[],
        ${pick((m) => m.a.model)}::text[])`;
  }
  const inserted = rows.filter((r) => r.inserted).length;
  // A key given twice in the batch replaced its own first answer.
  return { inserted, replaced: batch.length - inserted };
}
