import { storeJudgedAnswers } from '@vt/answers';
import type { ResponseRow } from '@vt/contracts';
import { Prisma, sqlReaderOf } from '@vt/db';
import { testDb, uniqueSlug } from '@vt/test-support';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeAnswer } from './rendered-json.ts';
import { findResponse, listResponses } from './responses.ts';

// The read model of /v1/responses (issue 31): each answer's list row is rendered by Postgres into
// `responses.list_fragment` when the answer is written, and a page is assembled from those
// fragments. These tests pin that a page's bytes are what JSON.stringify made of the rows before
// (awkward values included), and that the writers keep the fragments in step.

const db = testDb();
const sql = sqlReaderOf(db);
const today = new Date();
const dayOf = (back: number) => new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);
const range = { from: dayOf(29), to: dayOf(0) };
const firstPage = { limit: 100, offset: 0 };

async function newProperty(label: string) {
  const team = await db.team.create({ data: { name: label, slug: uniqueSlug(label) } });
  const property = await db.property.create({
    data: {
      teamId: team.id,
      name: `${label}.example`,
      domain: `${label}.example`,
      plan: 'growth',
      brandTerms: ['Acme'],
    },
  });
  const prompt = await db.prompt.create({ data: { propertyId: property.id, text: `Best tool for ${label}?` } });
  return { property, prompt };
}

/**
 * The rows as the read model built them before it stored fragments: every column read on its own,
 * a verdict without a mention stripped of its details, sources in citation order (responses.ts
 * before issue 31's read model).
 */
async function rowsAsObjects(propertyId: string): Promise<ResponseRow[]> {
  const responses = await db.response.findMany({
    where: { propertyId },
    include: { prompt: true, property: true, sources: { orderBy: { ordinal: 'asc' } } },
    orderBy: [{ day: 'desc' }, { id: 'asc' }],
  });
  return responses.map((r) => ({
    id: r.id,
    promptId: r.promptId,
    prompt: r.prompt.text,
    model: r.model,
    date: r.day.toISOString().slice(0, 10),
    mentioned: r.mentioned,
    matchedTerm: r.mentioned ? r.matchedTerm : null,
    position: r.mentioned ? r.position : null,
    sentiment: r.mentioned ? r.sentiment : null,
    excerpt: r.excerpt,
    sourceUrls: r.sources.map((s) => s.url),
    country: r.country,
    language: r.language,
    truncated: r.truncated,
    property: { id: r.property.id, name: r.property.name },
  }));
}

const pageBody = async (propertyId: string) =>
  serializeAnswer(await listResponses(sql, [propertyId], {}, range, firstPage));

const expectedBody = async (propertyId: string) => {
  const rows = await rowsAsObjects(propertyId);
  return JSON.stringify({
    data: rows,
    total: rows.length,
    has_more: false,
    next_cursor: null,
    prev_cursor: null,
  });
};

describe('the /v1/responses read model', () => {
  // Strings JSON must escape (quotes, backslashes, control characters), and some it must not.
  const awkward = 'He said "Acme" \\ then\n\ttabbed\u0001\u001f, ünïcødé 🚀 \u2028 </script> é';
  // Sentiments where Postgres and JavaScript print numbers differently: exponents, -0.
  const sentiments = [1e-7, 0.00001, -0.000123, 123.456, 0.1 + 0.2, -0, 1e21, 1.5e-300, 2 ** 60];
  let propertyId = '';

  beforeAll(async () => {
    const { property, prompt } = await newProperty('rendered');
    propertyId = property.id;
    // Written as seeds and older imports write them: the answer first, its sources on their own.
    for (const [i, sentiment] of sentiments.entries()) {
      const response = await db.response.create({
        data: {
          propertyId,
          promptId: prompt.id,
          model: `model-${i}`,
          day: new Date(`${dayOf(i % 3)}T00:00:00Z`),
          mentioned: i !== 2,
          // A miss with details stored anyway: the row must still carry none (READ-23).
          matchedTerm: i === 2 ? 'stale' : 'Acme "quoted"',
          position: i === 3 ? null : 7 * i,
          sentiment,
          excerpt: `${awkward} #${i}`,
          text: 'Full text',
          // Asked with a country and a language, with one of them, or with neither.
          country: i % 3 === 0 ? null : 'US',
          language: i % 2 === 0 ? null : 'en-US',
          // Cut short (the reason JSON must escape, once), or whole.
          truncated: i % 4 === 1 ? 'max_tokens' : i === 2 ? `${awkward} length` : null,
        },
      });
      await db.responseSource.createMany({
        data: [0, 1, 2].slice(0, i % 3).map((ordinal) => ({
          responseId: response.id,
          ordinal,
          url: `https://cited.example/${i}/${ordinal}?q="x"&y=\\`,
          domain: 'cited.example',
          propertyId,
          day: new Date(`${dayOf(i % 3)}T00:00:00Z`),
          model: `model-${i}`,
        })),
      });
    }
  });

  it('[READ-21] [READ-23] a page is byte for byte what JSON.stringify made of its rows, awkward strings and numbers included', async () => {
    const body = await pageBody(propertyId);
    expect(body).toBe(await expectedBody(propertyId));
    // And it parses back to the same rows (the console works on them so).
    const page = await listResponses(sql, [propertyId], {}, range, firstPage);
    expect(page.data.parse()).toEqual(await rowsAsObjects(propertyId));
  });

  it('[READ-25] the detail row equals the rendered list row, plus its text', async () => {
    const [row] = (await listResponses(sql, [propertyId], {}, range, { limit: 1, offset: 0 })).data.parse();
    const detail = await findResponse(sql, [propertyId], row!.id);
    expect(JSON.stringify(detail)).toBe(JSON.stringify({ ...row, text: 'Full text' }));
  });

  it('renders every double as JavaScript does (json_number_as_js against JSON.stringify)', async () => {
    const doubles = fc.sample(fc.double({ noNaN: false }), { numRuns: 3000, seed: 31 });
    doubles.push(Number.MIN_VALUE, Number.MAX_VALUE, 1e-7, 1e-6, 1e20, 1e21, 123e-20, -1.5e15, 0.5, 100);
    // Text, so no driver formatting stands between the value and Postgres.
    const rendered = await sql.rows<{ js: string }>(Prisma.sql`
      SELECT json_number_as_js(v::float8) AS js FROM unnest(${doubles.map((d) => (Object.is(d, -0) ? '-0' : String(d)))}::text[]) WITH ORDINALITY AS x(v, i)
      ORDER BY i`);
    expect(rendered.map((r) => r.js)).toEqual(doubles.map((d) => JSON.stringify(d)));
  });
});

describe('the writers keep the /v1/responses read model in step', () => {
  const judged = (propertyId: string, promptId: string, text: string, verdict: Partial<ReturnType<typeof miss>>) => ({
    propertyId,
    promptId,
    model: 'chatgpt',
    day: new Date(`${dayOf(1)}T00:00:00Z`),
    text,
    verdict: { ...miss(text), ...verdict },
  });
  const miss = (text: string) => ({
    mentioned: false,
    matchedTerm: null as string | null,
    position: null as number | null,
    sentiment: null as number | null,
    excerpt: text,
    sources: [] as { url: string; domain: string }[],
    competitorMentions: [] as { competitorId: string; matchedTerm: string; position: number }[],
  });

  it('[READ-21] a stored answer, its re-judged verdict, a renamed property and an edited prompt each show on the next page', async () => {
    const { property, prompt } = await newProperty('writers');
    const pageRows = async () => (await listResponses(sql, [property.id], {}, range, firstPage)).data.parse();

    // Collected (collect-answer and import store through storeJudgedAnswers).
    await db.$transaction((tx) =>
      storeJudgedAnswers(tx, [
        {
          ...judged(property.id, prompt.id, 'Nothing about it.', {
            sources: [{ url: 'https://first.example/a', domain: 'first.example' }],
          }),
          country: 'DE',
          language: 'de',
          truncated: 'max_output_tokens',
        },
      ]),
    );
    expect(await pageRows()).toMatchObject([
      {
        mentioned: false,
        matchedTerm: null,
        excerpt: 'Nothing about it.',
        sourceUrls: ['https://first.example/a'],
        country: 'DE',
        language: 'de',
        truncated: 'max_output_tokens',
      },
    ]);
    expect(await pageBody(property.id)).toBe(await expectedBody(property.id));

    // Re-judged (rejudge-property stores the same key again): new verdict, new sources, same id.
    const [before] = await pageRows();
    await db.$transaction((tx) =>
      storeJudgedAnswers(tx, [
        judged(property.id, prompt.id, 'Acme is best.', {
          mentioned: true,
          matchedTerm: 'Acme',
          position: 0,
          sentiment: 0.00001,
          sources: [
            { url: 'https://second.example/b', domain: 'second.example' },
            { url: 'https://third.example/c', domain: 'third.example' },
          ],
        }),
      ]),
    );
    expect(await pageRows()).toMatchObject([
      {
        id: before!.id,
        mentioned: true,
        matchedTerm: 'Acme',
        position: 0,
        sentiment: 0.00001,
        sourceUrls: ['https://second.example/b', 'https://third.example/c'],
        country: null,
        language: null,
        truncated: null,
      },
    ]);
    expect(await pageBody(property.id)).toBe(await expectedBody(property.id));

    // Re-judged to no sources at all: the row cites nothing (no sources insert runs).
    await db.$transaction((tx) => storeJudgedAnswers(tx, [judged(property.id, prompt.id, 'Gone.', {})]));
    expect(await pageRows()).toMatchObject([{ mentioned: false, sentiment: null, sourceUrls: [] }]);

    // The parts that change on their own are joined as the page is read.
    // (A property's rename is one UPDATE of its name: @vt/properties, which depends on this package, does no more.)
    await db.property.update({ where: { id: property.id }, data: { name: 'Renamed "Acme"' } });
    await db.prompt.update({ where: { id: prompt.id }, data: { text: 'Edited prompt?' } });
    expect(await pageRows()).toMatchObject([
      { prompt: 'Edited prompt?', property: { id: property.id, name: 'Renamed "Acme"' } },
    ]);
    expect(await pageBody(property.id)).toBe(await expectedBody(property.id));
  });

  it('the stored fragment is a generated column: no writer can set it', async () => {
    const { property, prompt } = await newProperty('generated');
    await expect(
      db.$executeRaw`
        INSERT INTO responses (property_id, prompt_id, model, day, mentioned, excerpt, text, list_fragment)
        VALUES (${property.id}::uuid, ${prompt.id}::uuid, 'chatgpt', current_date, false, 'x', 'x', '"forged":1')`,
    ).rejects.toThrow(/list_fragment/);
  });
});
