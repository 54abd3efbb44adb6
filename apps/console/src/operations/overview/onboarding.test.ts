import { scratchDatabase } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../../testing/index.ts';

// GET /api/properties/{id}/onboarding: the setup checklist ticking as each step is done, and the
// prompts and competitors suggested from what the property has (no network).

const TODAY = new Date('2026-04-20T15:00:00Z');
const h = createConsoleHarness({ now: TODAY, sessionTtlMs: 7 * 86_400_000 });
afterAll(() => h.close());

async function newProperty() {
  const owner = await h.signUp('owner');
  const { teamId } = await h.teamOf(owner);
  const as = h.as(owner.token, teamId);
  const created = await as.post('/api/properties', {
    name: 'Acme Analytics',
    domain: 'acme.example',
    plan: 'growth',
    brandTerms: ['Acme', 'AcmeIQ'],
  });
  const id = created.body.property.id as string;
  return { as, id, onboarding: `/api/properties/${id}/onboarding` };
}

const doneSteps = (body: { checklist: { steps: { step: string; done: boolean }[] } }) =>
  body.checklist.steps.filter((s) => s.done).map((s) => s.step);

describe("a property's onboarding", () => {
  it('ticks each step as it is done: prompts, competitors, crawl batch, verified webhook, answers', async () => {
    const t = await newProperty();
    const fresh = await t.as.get(t.onboarding);
    expect(fresh.status).toBe(200);
    expect(doneSteps(fresh.body)).toEqual([]);
    expect(fresh.body.checklist.complete).toBe(false);

    const prompt = await t.as.post(`/api/properties/${t.id}/prompts`, { text: 'best analytics tools' });
    await t.as.post(`/api/properties/${t.id}/competitors`, { name: 'Globex', domain: 'globex.example' });
    expect(doneSteps((await t.as.get(t.onboarding)).body)).toEqual(['prompts', 'competitors']);

    // A refused batch is not a connection; an accepted one is.
    await h.db.deliveryLogEntry.create({
      data: { propertyId: t.id, channel: 'crawl', statusCode: 401, outcome: 'rejected', createdAt: TODAY },
    });
    const refused = (await t.as.get(t.onboarding)).body.checklist.steps.find(
      (s: { step: string }) => s.step === 'crawl',
    );
    expect(refused).toEqual({ step: 'crawl', done: false, detail: 'Batches arrived, none accepted yet' });
    await h.db.deliveryLogEntry.create({
      data: { propertyId: t.id, channel: 'crawl', statusCode: 202, outcome: 'accepted', createdAt: TODAY },
    });
    const lead = await h.db.lead.create({
      data: { propertyId: t.id, eventId: 'evt-1', contact: 'a lead', matched: false, receivedAt: TODAY, day: TODAY },
    });
    await h.db.deliveryLogEntry.create({
      data: {
        propertyId: t.id,
        channel: 'webhook',
        statusCode: 200,
        outcome: 'stored lead',
        createdAt: TODAY,
        leadId: lead.id,
      },
    });
    expect(doneSteps((await t.as.get(t.onboarding)).body)).toEqual(['prompts', 'competitors', 'crawl', 'webhook']);

    await h.db.response.create({
      data: {
        propertyId: t.id,
        promptId: prompt.body.prompt.id,
        model: 'perplexity',
        day: new Date('2026-04-19T00:00:00Z'),
        mentioned: false,
        excerpt: 'an answer',
        text: 'an answer',
      },
    });
    const complete = (await t.as.get(t.onboarding)).body;
    expect(complete.checklist.complete).toBe(true);
    expect(complete.checklist.steps.at(-1)).toEqual({
      step: 'answers',
      done: true,
      detail: '1 answer stored, the latest on 2026-04-19',
    });
  });

  it('suggests prompts from the brand, its competitors and a typed category, less those it asks already', async () => {
    const t = await newProperty();
    await t.as.post(`/api/properties/${t.id}/prompts`, { text: 'Is Acme worth it?' });
    await t.as.post(`/api/properties/${t.id}/competitors`, { name: 'Globex' });
    const plain = (await t.as.get(t.onboarding)).body.suggestedPrompts.map((p: { text: string }) => p.text);
    expect(plain).toEqual([
      'What are the best alternatives to Acme?',
      'How much does Acme cost?',
      'Acme vs Globex: which is better?',
      'What are the best alternatives to Globex?',
    ]);
    const withCategory = await t.as.get(`${t.onboarding}?category=${encodeURIComponent('  web analytics ')}`);
    expect(withCategory.body.suggestedPrompts.slice(0, 3).map((p: { text: string }) => p.text)).toEqual([
      'What are the best web analytics tools?',
      'Is Acme good for web analytics?',
      'Which web analytics tool is best for a small business?',
    ]);
    const tooLong = await t.as.get(`${t.onboarding}?category=${'x'.repeat(61)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('INVALID_PARAM');
  });

  it('suggests as competitors the domains its answers cite, never its own, a tracked one or a reference site', async () => {
    const t = await newProperty();
    const prompt = await t.as.post(`/api/properties/${t.id}/prompts`, { text: 'best analytics tools' });
    await t.as.post(`/api/properties/${t.id}/competitors`, { name: 'Globex', domain: 'globex.example' });
    const cite = async (model: string, domains: string[]) => {
      const response = await h.db.response.create({
        data: {
          propertyId: t.id,
          promptId: prompt.body.prompt.id,
          model,
          day: new Date('2026-04-19T00:00:00Z'),
          mentioned: false,
          excerpt: 'an answer',
          text: 'an answer',
        },
      });
      await h.db.responseSource.createMany({
        data: domains.map((domain, ordinal) => ({
          responseId: response.id,
          ordinal,
          url: `https://${domain}/`,
          domain,
          propertyId: t.id,
          day: response.day,
          model,
        })),
      });
    };
    await cite('chatgpt', ['hooli-insights.example', 'en.wikipedia.org', 'globex.example', 'docs.acme.example']);
    await cite('claude', ['hooli-insights.example', 'umbra.example', 'reddit.com']);
    const res = await t.as.get(t.onboarding);
    expect(res.body.suggestedCompetitors).toEqual([
      { name: 'Hooli Insights', domain: 'hooli-insights.example', citations: 2 },
      { name: 'Umbra', domain: 'umbra.example', citations: 1 },
    ]);
  });

  it("answers NOT_FOUND for another team's property", async () => {
    const t = await newProperty();
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    const res = await h.as(stranger.token, teamId).get(t.onboarding);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe("a property's onboarding, before its first answer", () => {
  it('says why no answer has come: no platform key on the collector, or which platforms ask and when', async () => {
    // The collector's status is one per deployment: a database of its own, so no other file's rows count.
    const scratch = await scratchDatabase('console_onboarding');
    const own = createConsoleHarness({ db: scratch.db, now: TODAY, sessionTtlMs: 7 * 86_400_000 });
    try {
      const owner = await own.signUp('owner');
      const { teamId } = await own.teamOf(owner);
      const as = own.as(owner.token, teamId);
      const created = await as.post('/api/properties', { name: 'Acme', domain: 'acme.example', plan: 'growth' });
      const onboarding = `/api/properties/${created.body.property.id}/onboarding`;
      const answersStep = async () =>
        (await as.get(onboarding)).body.checklist.steps.find((s: { step: string }) => s.step === 'answers');

      expect(await answersStep()).toEqual({
        step: 'answers',
        done: false,
        detail: 'No AI answer yet: no AI platform key is set on the answer collector',
      });
      const status = (platform: string, configured: boolean, nextRunAt: string) => ({
        platform,
        configured,
        collectAtUtc: nextRunAt.slice(11, 16),
        nextRunAt: new Date(nextRunAt),
        reportedAt: TODAY,
      });
      await scratch.db.answerPlatformStatus.createMany({
        data: [
          status('claude', true, '2026-04-21T06:00:00Z'),
          status('chatgpt', true, '2026-04-21T06:00:00Z'),
          status('gemini', false, '2026-04-21T06:00:00Z'),
        ],
      });
      const waiting = await answersStep();
      expect(waiting.done).toBe(false);
      expect(waiting.detail).toMatch(
        /^No AI answer yet: (Claude, ChatGPT|ChatGPT, Claude) will ask at the next run, 2026-04-21 06:00 UTC$/,
      );
    } finally {
      await own.close();
      await scratch.drop();
    }
  });
});
