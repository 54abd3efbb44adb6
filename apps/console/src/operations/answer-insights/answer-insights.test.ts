import { importAnswers } from '@vt/answers';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The answers' insight views over answers judged on import (the collection's path): the sources
// AI answers cite and the gaps against competitors, each prompt's latest verdict per platform with
// its trend, and one whole answer. Every expected figure below is counted by hand from the seed.

const TODAY = new Date('2026-05-10T12:00:00Z');
const h = createConsoleHarness({ now: TODAY, sessionTtlMs: 7 * 86_400_000 });
afterAll(() => h.close());

const P1 = 'best crm for startups';
const P2 = 'crm with the best api';

async function seeded() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', {
    name: 'Acme',
    domain: 'acme.example',
    plan: 'growth',
    brandTerms: ['Acme'],
  });
  const id = created.body.property.id as string;
  await as(owner).post(`/api/properties/${id}/competitors`, { name: 'Globex', domain: 'globex.example' });
  await as(owner).post(`/api/properties/${id}/competitors`, { name: 'Initech' });
  const line = (date: string, model: string, prompt: string, answer: string, citations: string[] = []) =>
    JSON.stringify({ propertyId: id, prompt, model, date, answer, citations });
  const result = await importAnswers(
    h.db,
    [
      // Before the sources' range, inside the trend's previous week.
      line('2026-04-30', 'chatgpt', P1, 'Acme again.'),
      // 1: Globex first, then the brand: rank 2 of 2.
      line('2026-05-08', 'chatgpt', P1, 'Globex is popular. Acme is excellent and loved by startups.', [
        'https://g2.example/crm',
        'https://acme.example/pricing',
      ]),
      // 2: competitors only.
      line('2026-05-08', 'claude', P1, 'Globex and Initech are common choices.', [
        'https://reviews.example/crm',
        'https://g2.example/crm',
      ]),
      // 3
      line('2026-05-09', 'chatgpt', P1, 'Acme leads the market.', [
        'https://acme.example/pricing',
        'https://news.example/a',
      ]),
      // 4: the brand first, then Globex.
      line('2026-05-09', 'claude', P1, 'Acme is fine; Globex too.', ['https://docs.acme.example/start']),
      // 5: a competitor only.
      line('2026-05-09', 'chatgpt', P2, 'Initech has the best API.', ['https://reviews.example/api']),
      // 6: the brand, negatively, then a competitor; no citation.
      line('2026-05-09', 'claude', P2, 'Acme is terrible for APIs; Initech is better.'),
    ],
    { now: TODAY },
  );
  expect(result.rejected).toEqual([]);
  const responses = await h.db.response.findMany({ where: { propertyId: id }, include: { prompt: true } });
  const answerOf = (date: string, model: string, prompt: string) =>
    responses.find((r) => r.day.toISOString().startsWith(date) && r.model === model && r.prompt.text === prompt)
      ?.id as string;
  return { owner, member, as, id, answerOf };
}

describe('the sources AI answers cite', () => {
  it('counts the most cited domains and URLs with their share of answers, and the own pages', async () => {
    const t = await seeded();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/sources?from=2026-05-01&to=2026-05-10`);
    expect(res.status).toBe(200);
    // Six answers in the range (the one of 30 April is before it), five of them citing something.
    expect(res.body).toMatchObject({ ownDomain: 'acme.example', answers: 6, answersCiting: 5, model: null });
    expect(res.body.platforms).toEqual(['chatgpt', 'claude']);
    expect(res.body.domainCount).toBe(5);
    const domains = res.body.domains.map((d: Record<string, unknown>) => [d.domain, d.answers, d.citations, d.own]);
    expect(domains).toEqual([
      ['acme.example', 2, 2, true], // answers 1 and 3
      ['g2.example', 2, 2, false], // 1 and 2
      ['reviews.example', 2, 2, false], // 2 and 5
      ['docs.acme.example', 1, 1, true], // 4: a subdomain is the property's own
      ['news.example', 1, 1, false], // 3
    ]);
    expect(res.body.domains[0].shareOfAnswers).toBe(2 / 6);
    expect(res.body.urlCount).toBe(6);
    expect(res.body.urls.slice(0, 2).map((u: { url: string; answers: number }) => [u.url, u.answers])).toEqual([
      ['https://acme.example/pricing', 2],
      ['https://g2.example/crm', 2],
    ]);
    expect(res.body.ownPages.map((u: Record<string, unknown>) => [u.url, u.answers, u.shareOfAnswers])).toEqual([
      ['https://acme.example/pricing', 2, 2 / 6],
      ['https://docs.acme.example/start', 1, 1 / 6],
    ]);
  });

  it('narrows to one platform', async () => {
    const t = await seeded();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/sources?from=2026-05-01&model=claude`);
    expect(res.status).toBe(200);
    // Claude's answers 2, 4 and 6: two cite something.
    expect(res.body).toMatchObject({ model: 'claude', answers: 3, answersCiting: 2, domainCount: 3 });
    // The platforms to filter by stay every platform with answers in the range.
    expect(res.body.platforms).toEqual(['chatgpt', 'claude']);
    expect(
      res.body.domains.map((d: { domain: string; shareOfAnswers: number }) => [d.domain, d.shareOfAnswers]),
    ).toEqual([
      ['docs.acme.example', 1 / 3],
      ['g2.example', 1 / 3],
      ['reviews.example', 1 / 3],
    ]);
  });

  it('finds per platform the sources cited beside competitors and never beside the brand', async () => {
    const t = await seeded();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/sources/gaps?from=2026-05-01`);
    expect(res.status).toBe(200);
    const [chatgpt, claude] = res.body.platforms;
    // ChatGPT names the brand in answers 1 and 3 (citing g2, acme, news); answer 5 names Initech
    // and cites reviews.example, which no answer naming the brand cites.
    expect(chatgpt).toEqual({
      model: 'chatgpt',
      answersNamingCompetitors: 2,
      answersNamingBrand: 2,
      gapCount: 1,
      gaps: [{ domain: 'reviews.example', answers: 1, competitors: ['Initech'] }],
    });
    // Claude names the brand in 4 (citing docs.acme) and 6; answer 2 names Globex and Initech.
    expect(claude).toEqual({
      model: 'claude',
      answersNamingCompetitors: 3,
      answersNamingBrand: 2,
      gapCount: 2,
      gaps: [
        { domain: 'g2.example', answers: 1, competitors: ['Globex', 'Initech'] },
        { domain: 'reviews.example', answers: 1, competitors: ['Globex', 'Initech'] },
      ],
    });
    const one = await t.as(t.member).get(`/api/properties/${t.id}/sources/gaps?from=2026-05-01&model=chatgpt`);
    expect(one.body.platforms.map((p: { model: string }) => p.model)).toEqual(['chatgpt']);
  });

  it("is a 404 for another team's property and refuses a bad platform or range", async () => {
    const t = await seeded();
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    for (const view of ['sources', 'sources/gaps', 'prompt-matrix']) {
      const res = await h.as(stranger.token, teamId).get(`/api/properties/${t.id}/${view}`);
      expect(res.status, view).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const bad = await t.as(t.member).get(`/api/properties/${t.id}/sources?model=${encodeURIComponent('<b>')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAM');
    const reversed = await t.as(t.member).get(`/api/properties/${t.id}/sources/gaps?from=2026-05-09&to=2026-05-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.code).toBe('INVALID_PARAM');
  });
});

describe('prompts × platforms', () => {
  it('[READ-23] shows each prompt’s latest verdict per platform: mention, rank among the brands named, sentiment in words, trend', async () => {
    const t = await seeded();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/prompt-matrix`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ asOf: '2026-05-10', trendDays: 7, platforms: ['chatgpt', 'claude'] });
    const [p1, p2] = res.body.prompts;
    expect(p1.text).toBe(P1);
    const [p1chatgpt, p1claude] = p1.cells;
    expect(p1chatgpt.latest).toMatchObject({ date: '2026-05-09', mentioned: true, rank: 1, brandsNamed: 1 });
    expect(p1chatgpt.latest.responseId).toBe(t.answerOf('2026-05-09', 'chatgpt', P1));
    // Named on 8 and 9 May (this week), and on 30 April (the week before).
    expect(p1chatgpt.trend).toEqual({
      mentionedDays: 2,
      answeredDays: 2,
      previousMentionedDays: 1,
      previousAnsweredDays: 1,
    });
    expect(p1claude.latest).toMatchObject({ mentioned: true, rank: 1, brandsNamed: 2, sentimentWord: 'positive' });
    expect(p1claude.trend).toMatchObject({ mentionedDays: 1, answeredDays: 2, previousAnsweredDays: 0 });
    const [p2chatgpt, p2claude] = p2.cells;
    expect(p2chatgpt.latest).toMatchObject({
      mentioned: false,
      rank: null,
      brandsNamed: 1,
      sentiment: null,
      sentimentWord: null,
    });
    expect(p2claude.latest).toMatchObject({ mentioned: true, rank: 1, brandsNamed: 2, sentimentWord: 'negative' });

    const fortnight = await t.as(t.member).get(`/api/properties/${t.id}/prompt-matrix?trendDays=14`);
    // 14 days reach back to 27 April: all three chatgpt answers to P1 are in the current window.
    expect(fortnight.body.prompts[0].cells[0].trend).toMatchObject({ mentionedDays: 3, previousAnsweredDays: 0 });
    const bad = await t.as(t.member).get(`/api/properties/${t.id}/prompt-matrix?trendDays=8`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAM');
  });

  it('ranks the brand behind the competitors named before it', async () => {
    const t = await seeded();
    const res = await t
      .as(t.member)
      .get(`/api/properties/${t.id}/responses/${t.answerOf('2026-05-08', 'chatgpt', P1)}`);
    expect(res.status).toBe(200);
    expect(res.body.answer).toMatchObject({ rank: 2, brandsNamed: 2, position: 'Globex is popular. '.length });
  });
});

describe('one whole answer', () => {
  it('answers the text, the verdict, the competitors named with positions, the citations and the names to highlight', async () => {
    const t = await seeded();
    const id = t.answerOf('2026-05-08', 'chatgpt', P1);
    const res = await t.as(t.member).get(`/api/properties/${t.id}/responses/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.answer).toMatchObject({
      id,
      prompt: P1,
      model: 'chatgpt',
      date: '2026-05-08',
      mentioned: true,
      matchedTerm: 'Acme',
      sentimentWord: 'positive',
      text: 'Globex is popular. Acme is excellent and loved by startups.',
      competitors: [{ name: 'Globex', position: 0 }],
      citations: [
        { url: 'https://g2.example/crm', domain: 'g2.example' },
        { url: 'https://acme.example/pricing', domain: 'acme.example' },
      ],
      highlights: [
        { start: 0, end: 6, kind: 'competitor', name: 'Globex' },
        { start: 19, end: 23, kind: 'brand', name: 'Acme' },
      ],
    });
  });

  it('says when the platform cut the answer short, with its reason, in the answer and in the list; null when whole', async () => {
    const t = await seeded();
    const cut = t.answerOf('2026-05-09', 'claude', P1);
    const whole = t.answerOf('2026-05-09', 'chatgpt', P1);
    // As the collector stores a partial answer (collector.test.ts has the vendors' own).
    await h.db.response.update({ where: { id: cut }, data: { truncated: 'max_tokens' } });
    const detail = async (id: string) =>
      (await t.as(t.member).get(`/api/properties/${t.id}/responses/${id}`)).body.answer;
    expect((await detail(cut)).truncated).toBe('max_tokens');
    expect((await detail(whole)).truncated).toBeNull();
    const list = await t.as(t.member).get(`/api/properties/${t.id}/responses?from=2026-05-09&to=2026-05-09`);
    expect(list.status).toBe(200);
    const byId = new Map(list.body.data.map((r: { id: string; truncated: string | null }) => [r.id, r.truncated]));
    expect(byId.get(cut)).toBe('max_tokens');
    expect(byId.get(whole)).toBeNull();
  });

  it("is a 404 for another team's answer, through its property or through one's own", async () => {
    const t = await seeded();
    const id = t.answerOf('2026-05-08', 'chatgpt', P1);
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    const own = await h
      .as(stranger.token, teamId)
      .post('/api/properties', { name: 'Mine', domain: 'mine.example', plan: 'growth' });
    for (const propertyId of [t.id, own.body.property.id]) {
      const res = await h.as(stranger.token, teamId).get(`/api/properties/${propertyId}/responses/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const missing = await t.as(t.member).get(`/api/properties/${t.id}/responses/not-a-uuid`);
    expect(missing.status).toBe(404);
  });
});
