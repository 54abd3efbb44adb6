import { randomUUID } from 'node:crypto';
import { addUtcDays, type PrismaClient, sqlReaderOf, utcDay } from '@vt/db';
import { visibilitySeries } from '@vt/read-model';
import { testDb, uniqueSlug } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The daily counts behind /v1 totals and the visibility series are kept by triggers on
// `responses`; whatever is written, they must equal counting the answers themselves.

const db: PrismaClient = testDb();
let propertyId: string;
let promptIds: string[];
const today = utcDay(new Date('2026-05-10T00:00:00Z'));

async function expectCountsToMatchAnswers() {
  const fromAnswers = await db.$queryRaw<unknown[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, model, count(*)::int AS responses,
      count(*) FILTER (WHERE mentioned)::int AS mentions,
      count(position) FILTER (WHERE mentioned)::int AS position_count,
      COALESCE(sum(position) FILTER (WHERE mentioned), 0)::int AS position_sum,
      count(sentiment) FILTER (WHERE mentioned)::int AS sentiment_count,
      round(COALESCE(sum(sentiment) FILTER (WHERE mentioned), 0)::numeric, 9)::float8 AS sentiment_sum
    FROM responses WHERE property_id = ${propertyId}::uuid
    GROUP BY day, model ORDER BY day, model`;
  const kept = await db.$queryRaw<unknown[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, model, responses, mentions, position_count,
      position_sum::int AS position_sum, sentiment_count, round(sentiment_sum::numeric, 9)::float8 AS sentiment_sum
    FROM response_daily_counts WHERE property_id = ${propertyId}::uuid AND responses > 0
    ORDER BY day, model`;
  expect(kept).toEqual(fromAnswers);
}

function answer(promptId: string, model: string, day: Date, mentioned: boolean, position: number | null = 12) {
  return {
    id: randomUUID(),
    propertyId,
    promptId,
    model,
    day,
    mentioned,
    matchedTerm: mentioned ? 'Brand' : null,
    position: mentioned ? position : null,
    sentiment: mentioned ? 0.25 : null,
    excerpt: 'An answer.',
    text: 'An answer.',
  };
}

beforeAll(async () => {
  const slug = uniqueSlug('daily');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth', brandTerms: ['Brand'] },
  });
  propertyId = property.id;
  promptIds = await Promise.all(
    ['a', 'b', 'c'].map(async (text) => (await db.prompt.create({ data: { propertyId, text } })).id),
  );
});
afterAll(async () => {
  await db.property.delete({ where: { id: propertyId } }).catch(() => {});
});

describe('response daily counts', () => {
  it('follow a bulk insert of many days, models and prompts', async () => {
    const rows = [];
    for (let d = 0; d < 10; d++) {
      for (const promptId of promptIds) {
        for (const model of ['chatgpt', 'claude']) {
          rows.push(
            answer(promptId, model, addUtcDays(today, -d), (d + model.length) % 3 !== 0, d % 4 ? 10 + d : null),
          );
        }
      }
    }
    await db.response.createMany({ data: rows });
    await expectCountsToMatchAnswers();
  });

  it('follow single inserts and updates that flip a verdict, move a day or change the model', async () => {
    const one = answer(promptIds[0]!, 'gemini', today, false);
    await db.response.create({ data: one });
    await expectCountsToMatchAnswers();
    await db.response.update({
      where: { id: one.id },
      data: { mentioned: true, matchedTerm: 'Brand', position: 77, sentiment: -0.5 },
    });
    await expectCountsToMatchAnswers();
    await db.response.update({ where: { id: one.id }, data: { day: addUtcDays(today, -3), model: 'copilot' } });
    await expectCountsToMatchAnswers();
    await db.response.updateMany({ where: { propertyId, model: 'claude' }, data: { mentioned: false } });
    await expectCountsToMatchAnswers();
  });

  it('follow deletes, one and many, and a concurrent writer of the same days', async () => {
    const [first] = await db.response.findMany({ where: { propertyId }, take: 1 });
    await db.response.delete({ where: { id: first!.id } });
    await expectCountsToMatchAnswers();
    await db.response.deleteMany({ where: { propertyId, model: 'chatgpt', day: { gte: addUtcDays(today, -4) } } });
    await expectCountsToMatchAnswers();
    const extra = (model: string) =>
      promptIds.map((promptId, i) => answer(promptId, model, addUtcDays(today, -20 - i), true, 5));
    await Promise.all([
      db.response.createMany({ data: extra('perplexity') }),
      db.response.createMany({ data: extra('mistral') }),
    ]);
    await expectCountsToMatchAnswers();
  });

  it('[READ-29] [READ-6] leave the visibility series no point without answers, and its total counts only its points', async () => {
    // The deletes above left days whose counts are back to zero: still rows, never points.
    const [{ zeroes } = { zeroes: 0 }] = await db.$queryRaw<{ zeroes: number }[]>`
      SELECT count(*)::int AS zeroes FROM response_daily_counts WHERE property_id = ${propertyId}::uuid AND responses = 0`;
    expect(zeroes).toBeGreaterThan(0);
    const range = { from: addUtcDays(today, -60).toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
    const series = (offset: number, limit: number) =>
      visibilitySeries(sqlReaderOf(db), [propertyId], {}, range, { offset, limit });
    const all = await series(0, 1000);
    expect(all.data.length).toBeGreaterThan(3);
    expect(all.data.every((point) => point.responses > 0)).toBe(true);
    expect(all.total).toBe(all.data.length);
    const page = await series(1, 2);
    expect(page).toMatchObject({ data: all.data.slice(1, 3), total: all.total, has_more: true });
  });

  it('go with the property when it is deleted', async () => {
    await db.property.delete({ where: { id: propertyId } });
    const left = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM response_daily_counts WHERE property_id = ${propertyId}::uuid`;
    expect(left[0]?.n).toBe(0);
  });
});
