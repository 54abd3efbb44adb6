import { testDb, uniqueSlug } from '@vt/test-support';
import { judgeAnswer } from '@vt/verdict';
import { describe, expect, it } from 'vitest';
import { storeJudgedAnswers } from './store-answers.ts';

// Storing judged answers: one row per (property, prompt, platform, day), replaced whole (its
// sources and competitor mentions too) when judged again, and the daily counts following.

const db = testDb();
const day = new Date('2026-03-01T00:00:00Z');

async function world() {
  const slug = uniqueSlug('store');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.io', brandTerms: ['Acme'] },
  });
  const prompt = await db.prompt.create({ data: { propertyId: property.id, text: 'which?' } });
  const globex = await db.competitor.create({ data: { propertyId: property.id, name: 'Globex', terms: ['Globex'] } });
  const judged = (text: string, citations: string[] = [], model = 'chatgpt') => ({
    propertyId: property.id,
    promptId: prompt.id,
    model,
    day,
    text,
    verdict: judgeAnswer({
      answer: text,
      citations,
      brandTerms: ['Acme'],
      competitors: [{ id: globex.id, terms: ['Globex'] }],
    }),
  });
  return { property, globex, judged };
}

describe('storeJudgedAnswers', () => {
  it('stores an answer with its sources in order and its competitor mentions, and counts the day', async () => {
    const w = await world();
    const result = await db.$transaction((tx) =>
      storeJudgedAnswers(tx, [w.judged('Acme beats Globex.', ['https://a.example/1', 'https://b.example/2'])]),
    );
    expect(result).toEqual({ inserted: 1, replaced: 0 });
    const row = await db.response.findFirstOrThrow({
      where: { propertyId: w.property.id },
      include: { sources: { orderBy: { ordinal: 'asc' } }, competitorMentions: true },
    });
    expect(row).toMatchObject({ mentioned: true, matchedTerm: 'Acme', position: 0, excerpt: 'Acme beats Globex.' });
    expect(row.sources.map((s) => [s.ordinal, s.url, s.domain])).toEqual([
      [0, 'https://a.example/1', 'a.example'],
      [1, 'https://b.example/2', 'b.example'],
    ]);
    expect(row.competitorMentions).toEqual([expect.objectContaining({ competitorId: w.globex.id, position: 11 })]);
    expect(await db.responseDailyCount.findMany({ where: { propertyId: w.property.id } })).toEqual([
      expect.objectContaining({ model: 'chatgpt', responses: 1, mentions: 1 }),
    ]);
  });

  it('replaces the answer for the same key whole, keeping its id; a key twice in a batch keeps the last', async () => {
    const w = await world();
    await db.$transaction((tx) => storeJudgedAnswers(tx, [w.judged('Acme and Globex.', ['https://a.example/1'])]));
    const first = await db.response.findFirstOrThrow({ where: { propertyId: w.property.id } });
    const result = await db.$transaction((tx) =>
      storeJudgedAnswers(tx, [
        w.judged('Acme only.', ['https://x.example']),
        w.judged('Nobody here.', ['https://c.example/3']),
      ]),
    );
    expect(result).toEqual({ inserted: 0, replaced: 2 });
    const rows = await db.response.findMany({
      where: { propertyId: w.property.id },
      include: { sources: true, competitorMentions: true },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, text: 'Nobody here.', mentioned: false, matchedTerm: null });
    expect(rows[0]?.sources.map((s) => s.url)).toEqual(['https://c.example/3']);
    expect(rows[0]?.competitorMentions).toEqual([]);
    expect(await db.responseDailyCount.findMany({ where: { propertyId: w.property.id } })).toEqual([
      expect.objectContaining({ responses: 1, mentions: 0 }),
    ]);
  });
});
