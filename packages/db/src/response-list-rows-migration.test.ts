import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, dropDatabase, ensureDatabaseExists } from './index.ts';
import { migrationsBefore, removeMigrationCopies } from './testing/migrations-before.ts';
import { runDatabaseUrl } from './testing/run-database.ts';

// The migration that adds the /v1/responses read model, run where it matters: on a database
// migrated to the migration before it and already holding answers with their cited sources.
// Written with plain SQL, since this Prisma client already knows the columns the migration adds.

const READ_MODEL = '20261126180000_response_list_rows';
const url = runDatabaseUrl.replace(/\/([^/]+)$/, '/$1_list_rows');

afterAll(async () => {
  await dropDatabase(url);
  await removeMigrationCopies();
});

interface Stored {
  id: string;
  model: string;
  date: string;
  mentioned: boolean;
  matched_term: string | null;
  position: number | null;
  sentiment: number | null;
  excerpt: string;
  urls: string[];
  country: string | null;
  language: string | null;
}

/** The fragment as the read model's rows were serialized before it: JSON.stringify, model to language. */
const fragmentOf = (r: Stored) =>
  JSON.stringify({
    model: r.model,
    date: r.date,
    mentioned: r.mentioned,
    matchedTerm: r.mentioned ? r.matched_term : null,
    position: r.mentioned ? r.position : null,
    sentiment: r.mentioned ? r.sentiment : null,
    excerpt: r.excerpt,
    sourceUrls: r.urls,
    country: r.country,
    language: r.language,
  }).slice(1, -1);

describe(`migration ${READ_MODEL}`, () => {
  it('backfills a populated responses table: every answer gets its cited URLs and its rendered list fragment, every day its totals', async () => {
    await dropDatabase(url);
    await ensureDatabaseExists(url);
    await applyMigrations(url, await migrationsBefore(READ_MODEL));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const {
        rows: [property],
      } = await client.query<{ id: string }>(`
        WITH team AS (INSERT INTO teams (id, name, slug, updated_at) VALUES (gen_random_uuid(), 'Before', 'before-list-rows', now()) RETURNING id)
        INSERT INTO properties (id, team_id, name, domain, brand_terms, plan, updated_at)
        SELECT gen_random_uuid(), id, 'Acme', 'acme.example', ARRAY['Acme'], 'growth', now() FROM team RETURNING id`);
      await client.query(
        `INSERT INTO prompts (id, property_id, text, tags) VALUES (gen_random_uuid(), $1, 'Best tool?', '{}')`,
        [property!.id],
      );
      // 300 answers: hits and misses (some misses with stale details), escapes, sentiments of
      // every shape, zero to two sources each, asked with and without a country and a language.
      await client.query(
        `INSERT INTO responses (id, property_id, prompt_id, model, day, mentioned, matched_term, position, sentiment, excerpt, text,
           country, language)
         SELECT gen_random_uuid(), p.property_id, p.id, 'model-' || i, current_date - (i % 40), i % 3 <> 0,
           CASE WHEN i % 5 <> 0 THEN 'Acme "' || i || '"' END, CASE WHEN i % 7 <> 0 THEN i END,
           (ARRAY[NULL, 0.5, -0.125, 1e-7, 0.00001, 123.456, 1e21, -0.0]::float8[])[1 + i % 8],
           E'Line ' || i || E'\\n\\t"quoted" \\\\ \\u0001 ünï 🚀', 'text',
           CASE WHEN i % 4 <> 0 THEN (ARRAY['US', 'DE', 'FR'])[1 + i % 3] END, CASE WHEN i % 6 <> 0 THEN 'de-CH' END
         FROM prompts p, generate_series(1, 300) AS i`,
      );
      await client.query(
        `INSERT INTO response_sources (response_id, ordinal, url, domain, property_id, day, model)
         SELECT r.id, o, 'https://cited.example/' || r.model || '/' || o || '?q="x"', 'cited.example', r.property_id, r.day, r.model
         FROM responses r CROSS JOIN generate_series(0, 1) AS o
         WHERE o < (substr(r.model, 7)::int % 3)`,
      );
      const storedBefore = async () =>
        (
          await client.query<Stored>(`
            SELECT r.id, r.model, to_char(r.day, 'YYYY-MM-DD') AS date, r.mentioned, r.matched_term, r.position, r.sentiment,
              r.excerpt, r.country, r.language, ARRAY(SELECT url FROM response_sources s WHERE s.response_id = r.id ORDER BY ordinal) AS urls
            FROM responses r ORDER BY r.id`)
        ).rows;
      const before = await storedBefore();
      expect(before).toHaveLength(300);
      expect(new Set(before.map((r) => r.urls.length))).toEqual(new Set([0, 1, 2]));
      expect(new Set(before.map((r) => r.country))).toEqual(new Set([null, 'US', 'DE', 'FR']));
      expect(new Set(before.map((r) => r.language))).toEqual(new Set([null, 'de-CH']));

      const applied = await applyMigrations(url);
      expect(applied.find((m) => m.name === READ_MODEL)?.applied).toBe(true);

      const after = (
        await client.query<{ id: string; source_urls: string[]; list_fragment: string }>(
          'SELECT id, source_urls, list_fragment FROM responses ORDER BY id',
        )
      ).rows;
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
      for (const [i, row] of after.entries()) {
        const stored = before[i]!;
        expect(row.source_urls, stored.model).toEqual(stored.urls);
        expect(row.list_fragment, stored.model).toBe(fragmentOf(stored));
      }
      // The answers themselves are as they were.
      expect(await storedBefore()).toEqual(before);
      // And the next migration (20261126181000_response_day_totals) counted them per property and day.
      const totals = await client.query(`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, responses, mentions FROM response_day_totals ORDER BY day`);
      const counted = await client.query(`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS responses, count(*) FILTER (WHERE mentioned)::int AS mentions
        FROM responses GROUP BY day ORDER BY day`);
      expect(totals.rows).toHaveLength(40);
      expect(totals.rows).toEqual(counted.rows);
    } finally {
      await client.end();
    }
  });
});
