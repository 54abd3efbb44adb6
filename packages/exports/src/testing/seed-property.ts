import type { PrismaClient } from '@vt/db';

// One property with a little of everything an export reads, written as the workers and the answer
// store write it, with values chosen to test the CSV: commas, quotes, line breaks, accents, and
// text that a spreadsheet would run as a formula.

const day = (text: string) => new Date(`${text}T00:00:00Z`);

export interface SeededProperty {
  teamId: string;
  property: { id: string; name: string; domain: string; countDualUseAsAi: boolean };
}

/** A team and a property named `name`, on the Growth plan. */
export async function seedProperty(db: PrismaClient, slug: string, name = 'Acme Analytics'): Promise<SeededProperty> {
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name, domain: `${slug}.example`, brandTerms: ['Acme'], plan: 'growth' },
  });
  return { teamId: team.id, property };
}

/**
 * Answers on 2026-04-01 and 2026-04-02 (and one on 2026-04-03, outside the ranges the tests ask
 * for), AI crawler counts, AI referrals and leads on the same days.
 */
export async function seedExportRows(db: PrismaClient, propertyId: string): Promise<void> {
  const [best, hostile] = await Promise.all([
    db.prompt.create({ data: { propertyId, text: 'best analytics, "really" cheap?' } }),
    db.prompt.create({ data: { propertyId, text: '=HYPERLINK("http://evil.example","click")' } }),
  ]);
  const [globex, initech] = await Promise.all([
    db.competitor.create({ data: { propertyId, name: 'Globex', terms: ['Globex'] } }),
    db.competitor.create({ data: { propertyId, name: 'Initech', terms: ['Initech'] } }),
  ]);
  const answer = async (
    d: string,
    promptId: string,
    model: string,
    verdict: { position: number | null; sentiment: number | null; excerpt: string },
    mentions: { competitorId: string; position: number }[],
    sources: string[],
  ) => {
    const response = await db.response.create({
      data: {
        propertyId,
        promptId,
        model,
        day: day(d),
        mentioned: verdict.position !== null,
        matchedTerm: verdict.position !== null ? 'Acme' : null,
        position: verdict.position,
        sentiment: verdict.sentiment,
        excerpt: verdict.excerpt,
        text: `${verdict.excerpt}\n\nThe whole answer.`,
      },
    });
    for (const m of mentions) {
      await db.responseCompetitorMention.create({
        data: { responseId: response.id, ...m, propertyId, day: day(d), model },
      });
    }
    await db.responseSource.createMany({
      data: sources.map((url, ordinal) => ({
        responseId: response.id,
        ordinal,
        url,
        domain: new URL(url).hostname,
        propertyId,
        day: day(d),
        model,
      })),
    });
    return response.id;
  };
  await answer(
    '2026-04-01',
    best.id,
    'perplexity',
    { position: 40, sentiment: 0.61234, excerpt: 'Globex, then Acme: "fast", café-friendly' },
    [{ competitorId: globex.id, position: 0 }],
    ['https://acme.example/pricing', 'https://review.example/a,b'],
  );
  await answer(
    '2026-04-01',
    best.id,
    'chatgpt',
    { position: 0, sentiment: -0.25, excerpt: 'Acme first,\nthen Initech and Globex' },
    [
      { competitorId: initech.id, position: 20 },
      { competitorId: globex.id, position: 32 },
    ],
    [],
  );
  await answer(
    '2026-04-02',
    hostile.id,
    'chatgpt',
    { position: null, sentiment: null, excerpt: '-1 reason: @everyone +2' },
    [{ competitorId: initech.id, position: 5 }],
    ['https://initech.example/'],
  );
  await answer('2026-04-03', best.id, 'claude', { position: 3, sentiment: 0, excerpt: 'Outside the range.' }, [], []);

  await db.crawlerDailyCount.createMany({
    data: [
      { propertyId, day: day('2026-04-01'), crawler: 'GPTBot', operator: 'openai', verification: 'verified', hits: 5 },
      {
        propertyId,
        day: day('2026-04-01'),
        crawler: 'GPTBot',
        operator: 'openai',
        verification: 'unverified',
        hits: 2,
      },
      {
        propertyId,
        day: day('2026-04-01'),
        crawler: 'ClaudeBot',
        operator: 'anthropic',
        verification: 'unverifiable',
        hits: 11,
      },
      {
        propertyId,
        day: day('2026-04-02'),
        crawler: 'Applebot',
        operator: 'apple',
        verification: 'verified',
        hits: 40,
      },
      { propertyId, day: day('2026-04-03'), crawler: 'GPTBot', operator: 'openai', verification: 'verified', hits: 99 },
    ],
  });
  await db.aiReferralDailyCount.createMany({
    data: [
      { propertyId, day: day('2026-04-01'), platform: 'chatgpt', landingPath: '/pricing', visits: 3 },
      { propertyId, day: day('2026-04-01'), platform: 'perplexity', landingPath: '/', visits: 1 },
      { propertyId, day: day('2026-04-02'), platform: 'chatgpt', landingPath: '/a,"b"', visits: 7 },
      { propertyId, day: day('2026-04-03'), platform: 'claude', landingPath: '/late', visits: 9 },
    ],
  });
  const lead = (receivedAt: string, eventId: string, fields: object) => ({
    propertyId,
    eventId,
    receivedAt: new Date(receivedAt),
    day: day(receivedAt.slice(0, 10)),
    matched: false,
    contact: 'someone',
    ...fields,
  });
  await db.lead.createMany({
    data: [
      lead('2026-04-01T09:15:00.250Z', 'evt-1', {
        contact: 'Zoë Martín',
        email: 'zoe@example.com',
        landingPath: '/pricing',
        referrer: 'https://chatgpt.com/',
        utmSource: 'chatgpt.com',
        utmMedium: 'referral',
        sessionId: 's-1',
        matched: true,
        platform: 'chatgpt',
      }),
      lead('2026-04-02T23:59:59.999Z', 'evt-2', {
        contact: '=1+2',
        email: null,
        landingPath: null,
        referrer: null,
        utmSource: '@SUM(A1)',
        utmMedium: '\tcmd',
      }),
      lead('2026-03-31T23:59:59.999Z', 'evt-0', { contact: 'the day before' }),
      lead('2026-04-03T00:00:00.000Z', 'evt-3', { contact: 'the day after' }),
    ],
  });
}
