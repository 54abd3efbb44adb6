import { Prisma, sqlReaderOf } from '@vt/db';
import { listResponses } from '@vt/read-model';
import { testDb, uniqueSlug } from '@vt/test-support';
import { beforeAll, describe, expect, it } from 'vitest';

// listResponses reads a page in one of two ways (responses.ts, pageOfResponses): the columns as
// the index walk visits each row, or, deep in one property's list, the ids first and the rows
// after. These tests page one property of 600 answers across that switch and check both ways
// give the rows and order of one whole read.

const db = testDb();
const sql = sqlReaderOf(db);
const DAYS = 12;
const PROMPTS = 10;
const MODELS = ['chatgpt', 'perplexity', 'claude', 'gemini', 'copilot'];
const ANSWERS = DAYS * PROMPTS * MODELS.length;
const today = new Date();
const dayOf = (back: number) => new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);
const range = { from: dayOf(DAYS - 1), to: dayOf(0) };
let propertyId = '';
let otherPropertyId = '';

beforeAll(async () => {
  const team = await db.team.create({ data: { name: 'Pages', slug: uniqueSlug('pages') } });
  const [property, other] = await Promise.all(
    ['pages.example', 'other-pages.example'].map((domain) =>
      db.property.create({ data: { teamId: team.id, name: domain, domain, plan: 'growth' } }),
    ),
  );
  propertyId = property!.id;
  otherPropertyId = other!.id;
  for (const id of [propertyId, otherPropertyId]) {
    await db.$executeRaw`
      INSERT INTO prompts (id, property_id, text, tags)
      SELECT gen_random_uuid(), ${id}::uuid, 'Prompt ' || j, ARRAY['pages'] FROM generate_series(1, ${PROMPTS}) AS j`;
    await db.$executeRaw`
      INSERT INTO responses (id, property_id, prompt_id, model, day, mentioned, matched_term, position, sentiment, excerpt, text)
      SELECT gen_random_uuid(), p.property_id, p.id, m.model, current_date - d, d % 3 = 0,
        CASE WHEN d % 3 = 0 THEN 'Pages' END, CASE WHEN d % 3 = 0 THEN 10 + d END, CASE WHEN d % 3 = 0 THEN 0.5 END,
        'Excerpt ' || d, 'Text'
      FROM prompts p CROSS JOIN unnest(${MODELS}::text[]) AS m(model) CROSS JOIN generate_series(0, ${DAYS - 1}) AS d
      WHERE p.property_id = ${id}::uuid`;
    await db.$executeRaw`
      INSERT INTO response_sources (response_id, ordinal, url, domain, property_id, day, model)
      SELECT r.id, o, 'https://cited' || o || '.example/' || r.id, 'cited' || o || '.example', r.property_id, r.day, r.model
      FROM responses r CROSS JOIN generate_series(0, 1) AS o WHERE r.property_id = ${id}::uuid`;
  }
});

async function pagesOf(propertyIds: string[], limit: number) {
  const rows = [];
  for (let offset = 0; offset < ANSWERS * propertyIds.length; offset += limit) {
    const page = await listResponses(sql, propertyIds, {}, range, { limit, offset });
    expect(page.total).toBe(ANSWERS * propertyIds.length);
    rows.push(...page.data);
  }
  return rows;
}

describe('listResponses pages', () => {
  it('[READ-21] one property paged by 100 across the deep-offset switch equals one read of every row', async () => {
    const whole = await listResponses(sql, [propertyId], {}, range, { limit: 1000, offset: 0 });
    expect(whole.total).toBe(ANSWERS);
    expect(whole.data).toHaveLength(ANSWERS);
    // Pages at offsets 0..500: the deep path (ids first) serves offsets past 400.
    expect(await pagesOf([propertyId], 100)).toEqual(whole.data);
    const expectedOrder = await db.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT id FROM responses WHERE property_id = ${propertyId}::uuid ORDER BY day DESC, id`,
    );
    expect(whole.data.map((row) => row.id)).toEqual(expectedOrder.map((row) => row.id));
    // Every row carries its prompt, property and cited URLs in order, whichever way it was read.
    for (const row of whole.data) {
      expect(row.property).toEqual({ id: propertyId, name: 'pages.example' });
      expect(row.prompt).toMatch(/^Prompt \d+$/);
      expect(row.sourceUrls).toEqual([`https://cited0.example/${row.id}`, `https://cited1.example/${row.id}`]);
    }
  });

  it('[READ-21] two properties paged by 100 equal one read, and neither leaks into the other', async () => {
    // 1,200 rows: more than one page of the largest limit (1,000).
    const both = await pagesOf([propertyId, otherPropertyId], 1000);
    expect(both).toHaveLength(2 * ANSWERS);
    expect(await pagesOf([propertyId, otherPropertyId], 100)).toEqual(both);
    const other = await listResponses(sql, [otherPropertyId], {}, range, { limit: 1000, offset: 0 });
    expect(new Set(other.data.map((row) => row.property.id))).toEqual(new Set([otherPropertyId]));
  });

  it('[READ-21] a page past the end has no rows but still the total, both ways of reading', async () => {
    for (const [ids, total] of [
      [[propertyId], ANSWERS],
      [[propertyId, otherPropertyId], 2 * ANSWERS],
    ] as const) {
      const past = await listResponses(sql, ids, {}, range, { limit: 100, offset: total + 50 });
      expect(past).toMatchObject({ data: [], total });
    }
    const filtered = await listResponses(sql, [propertyId], { mentioned: true }, range, { limit: 100, offset: 5000 });
    expect(filtered).toMatchObject({ data: [], total: (ANSWERS / DAYS) * 4 }); // days 0, 3, 6, 9 mention
  });

  it('[READ-6] [READ-21] past the end, every filter still has its total (each way the total is counted)', async () => {
    const prompt = await db.prompt.findFirstOrThrow({ where: { propertyId }, select: { id: true } });
    const past = (query: Parameters<typeof listResponses>[2], offset = 5000) =>
      listResponses(sql, [propertyId], query, range, { limit: 100, offset });
    // One prompt's answers are counted directly; the rest come from the daily counts.
    expect(await past({ promptId: prompt.id })).toMatchObject({ data: [], total: DAYS * MODELS.length });
    expect(await past({ model: 'claude' })).toMatchObject({ data: [], total: DAYS * PROMPTS });
    // Past 400 one property's page walks ids first: the total comes with it the same way.
    expect(await past({ mentioned: false }, 450)).toMatchObject({ data: [], total: (ANSWERS / DAYS) * 8 });
  });
});
