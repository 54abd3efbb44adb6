import { answerCollectorConfigSchema } from '@vt/config';
import { generateApiKey } from '@vt/credentials';
import { formatUtcDay, type PrismaClient, utcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { createReadApiHarness } from '@vt/read-api/testing';
import { isolatedQueuePrefix, scratchDatabase, testEnv, uniqueSlug } from '@vt/test-support';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejudgeProperty } from './jobs/rejudge-property.ts';
import { anthropicClient } from './platforms/anthropic.ts';
import { geminiClient } from './platforms/gemini.ts';
import { openAiClient } from './platforms/openai.ts';
import { perplexityClient } from './platforms/perplexity.ts';
import { startAnswerCollector } from './start.ts';
import { startVendorReplays } from './testing/vendor-replays.ts';
import { waitFor } from './testing/wait-for.ts';

// The collector end to end, on the real Postgres and Redis, the four vendors' SDKs talking to local
// servers that replay each API's documented answers: the day's schedule → one job per (prompt, platform) → ask → judge →
// store, then /v1 serves it. Never asks twice; one platform's outage does not hold up the others;
// paused prompts and unpaid properties are not asked; changed terms re-judge stored answers.
// On a database of its own: a day's schedule asks every paid property of the database, and the
// run's holds hundreds from other files (on a loaded machine their questions kept one of this
// file's past its wait).

const today = formatUtcDay(utcDay(new Date()));
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: PrismaClient;
let readApi: ReturnType<typeof createReadApiHarness>;
let fake: Awaited<ReturnType<typeof startVendorReplays>>;
let collector: Awaited<ReturnType<typeof startAnswerCollector>>;

/** Each platform answers in its own words; ChatGPT and Claude mention the brand, and Globex. */
const answerOf = (platform: string, prompt: string) => ({
  text:
    platform === 'chatgpt' || platform === 'claude'
      ? `For "${prompt}", **Acme** is excellent and Globex is fine. See https://review.example/${platform}.`
      : `For "${prompt}", try Plausible or Matomo.`,
  citations: [`https://${platform}.example/source?utm_source=${platform}`],
});

async function world(plan: 'growth' | 'free' = 'growth') {
  const slug = uniqueSlug('collect');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.io', plan, brandTerms: ['Acme'] },
  });
  await db.competitor.create({ data: { propertyId: property.id, name: 'Globex', terms: ['Globex'] } });
  const asked = await db.prompt.create({ data: { propertyId: property.id, text: `best analytics ${slug}?` } });
  const paused = await db.prompt.create({ data: { propertyId: property.id, text: `paused ${slug}?`, active: false } });
  const issued = generateApiKey();
  await db.apiKey.create({ data: { teamId: team.id, name: 'k', keyHash: issued.hash, prefix: issued.prefix } });
  return { property, asked, paused, key: issued.key };
}

beforeAll(async () => {
  scratch = await scratchDatabase('answer_collector');
  db = scratch.db;
  readApi = createReadApiHarness({ db });
  fake = await startVendorReplays(answerOf);
  const config = answerCollectorConfigSchema.parse({
    ...testEnv,
    DATABASE_URL: scratch.url,
    QUEUE_PREFIX: isolatedQueuePrefix(),
    ANSWER_COLLECTOR_METRICS_PORT: '0',
    HOST: '127.0.0.1',
  });
  const key = 'test-key';
  collector = await startAnswerCollector(
    config,
    createLogger({ name: 'answer-collector', level: (process.env.COLLECTOR_TEST_LOG as 'silent') ?? 'silent' }),
    {
      clients: [
        openAiClient({ apiKey: key, model: 'gpt-4.1', baseUrl: fake.baseUrls.chatgpt }),
        perplexityClient({ apiKey: key, model: 'sonar', baseUrl: fake.baseUrls.perplexity }),
        anthropicClient({ apiKey: key, model: 'claude-sonnet-5-5', baseUrl: fake.baseUrls.claude }),
        geminiClient({ apiKey: key, model: 'gemini-2.5-flash', baseUrl: fake.baseUrls.gemini }),
      ],
    },
  );
}, 30_000);

afterAll(async () => {
  await collector?.close();
  await fake?.close();
  await readApi?.close();
  await scratch?.drop();
});

describe('answer collection', () => {
  it('asks every active prompt of paid properties on every platform once, judges, stores, and /v1 serves it', async () => {
    const w = await world();
    const unpaid = await world('free');
    await collector.collectDay(today);
    const rows = await waitFor(
      () =>
        db.response.findMany({
          where: { propertyId: w.property.id },
          // In the order the platform cited them: without orderBy, Postgres may return them in any order.
          include: { sources: { orderBy: { ordinal: 'asc' } }, competitorMentions: true },
        }),
      (r) => r.length === 4,
    );
    expect(rows.map((r) => [r.model, r.mentioned]).sort()).toEqual([
      ['chatgpt', true],
      ['claude', true],
      ['gemini', false],
      ['perplexity', false],
    ]);
    const chatgpt = rows.find((r) => r.model === 'chatgpt');
    expect(chatgpt).toMatchObject({ promptId: w.asked.id, matchedTerm: 'Acme' });
    expect(chatgpt?.position).toBe(chatgpt?.text.indexOf('Acme'));
    expect(chatgpt?.sources.map((s) => s.url)).toEqual([
      'https://chatgpt.example/source',
      'https://review.example/chatgpt',
    ]);
    expect(chatgpt?.competitorMentions).toHaveLength(1);
    // Only the active prompt was asked, and nothing of the free property.
    const prompts = fake.requests.map((r) => r.prompt);
    expect(prompts.filter((p) => p === w.asked.text)).toHaveLength(4);
    expect(prompts).not.toContain(w.paused.text);
    expect(prompts).not.toContain(unpaid.asked.text);

    const v1 = (path: string) => request(readApi.app).get(path).set('Authorization', `Bearer ${w.key}`);
    expect((await v1(`/v1/responses?propertyId=${w.property.id}`)).body.total).toBe(4);
    const visibility = await v1(`/v1/visibility?propertyId=${w.property.id}&from=${today}&to=${today}`);
    const byModel = Object.fromEntries(
      visibility.body.data.map((d: { model: string; mentions: number }) => [d.model, d.mentions]),
    );
    expect(byModel).toEqual({ chatgpt: 1, claude: 1, gemini: 0, perplexity: 0 });
    const sources = await v1(`/v1/sources?propertyId=${w.property.id}&from=${today}&to=${today}`);
    expect(sources.body.data.map((s: { domain: string }) => s.domain)).toContain('review.example');
    const competitors = await v1(`/v1/competitors?propertyId=${w.property.id}&from=${today}&to=${today}`);
    expect(JSON.stringify(competitors.body)).toContain('Globex');
  });

  it('never asks twice for a day: running the schedule again asks nothing', async () => {
    const w = await world();
    await collector.collectDay(today);
    await waitFor(
      () => db.response.count({ where: { propertyId: w.property.id } }),
      (n) => n === 4,
    );
    const asked = () => fake.requests.filter((r) => r.prompt === w.asked.text).length;
    expect(asked()).toBe(4);
    await collector.collectDay(today);
    await collector.collectDay(today);
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked()).toBe(4);
    expect(await db.response.count({ where: { propertyId: w.property.id } })).toBe(4);
  });

  it('goes on with the other platforms while one is down', async () => {
    const w = await world();
    fake.fail('gemini', 503);
    try {
      await collector.collectDay(today);
      const rows = await waitFor(
        () => db.response.findMany({ where: { propertyId: w.property.id }, select: { model: true } }),
        (r) => r.length === 3,
      );
      expect(rows.map((r) => r.model).sort()).toEqual(['chatgpt', 'claude', 'perplexity']);
      expect(fake.requests.some((r) => r.platform === 'gemini' && r.prompt === w.asked.text)).toBe(true);
      const metrics = await fetch(`http://127.0.0.1:${collector.port}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/vt_answers_collected_total\{[^}]*platform="gemini"[^}]*outcome="retrying"[^}]*\} [1-9]/);
    } finally {
      fake.fail('gemini', 0);
    }
  });

  it('answers /healthz, /readyz (Postgres and Redis) and /metrics: the platforms it collects from, and every queue it works', async () => {
    const base = `http://127.0.0.1:${collector.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('app="answer-collector"');
    for (const platform of ['chatgpt', 'perplexity', 'claude', 'gemini']) {
      expect(metrics).toMatch(new RegExp(`vt_answer_platform_enabled\\{[^}]*platform="${platform}"[^}]*\\} 1`));
    }
    for (const queue of [
      'answer-schedule',
      'answers-chatgpt',
      'answers-perplexity',
      'answers-claude',
      'answers-gemini',
      'answer-rejudge',
    ]) {
      expect(metrics).toMatch(new RegExp(`vt_queue_jobs\\{[^}]*queue="${queue}"[^}]*state="waiting"`));
    }
  });

  it('keeps a partial answer with the vendor’s reason: stored, kept by a re-judge, and shown by /v1', async () => {
    const w = await world();
    // Each vendor's documented partial answer, through its SDK.
    fake.next('chatgpt', 'incomplete-max-output-tokens');
    fake.next('perplexity', 'length');
    fake.next('claude', 'max-tokens');
    fake.next('gemini', 'max-tokens');
    await collector.collectDay(today);
    const rows = await waitFor(
      () => db.response.findMany({ where: { propertyId: w.property.id } }),
      (r) => r.length === 4,
    );
    const reasons = { chatgpt: 'max_output_tokens', perplexity: 'length', claude: 'max_tokens', gemini: 'MAX_TOKENS' };
    expect(Object.fromEntries(rows.map((r) => [r.model, r.truncated]))).toEqual(reasons);
    // The partial text is kept, as the vendor gave it.
    expect(rows.find((r) => r.model === 'claude')?.text).toContain('Claude Shannon was born on April 30,');

    // Judged again, not asked again: still marked.
    await db.property.update({ where: { id: w.property.id }, data: { brandTerms: ['Shannon'] } });
    await rejudgeProperty(db, w.property.id);
    const after = await db.response.findMany({ where: { propertyId: w.property.id } });
    expect(Object.fromEntries(after.map((r) => [r.model, r.truncated]))).toEqual(reasons);

    const v1 = (path: string) => request(readApi.app).get(path).set('Authorization', `Bearer ${w.key}`);
    const list = await v1(`/v1/responses?propertyId=${w.property.id}`);
    expect(
      Object.fromEntries(list.body.data.map((r: { model: string; truncated: string }) => [r.model, r.truncated])),
    ).toEqual(reasons);
    const claude = rows.find((r) => r.model === 'claude');
    expect((await v1(`/v1/responses/${claude?.id}`)).body.data).toMatchObject({ truncated: 'max_tokens' });
    // A whole answer says so with null.
    const whole = await world();
    await collector.collectDay(today);
    const [one] = await waitFor(
      () => db.response.findMany({ where: { propertyId: whole.property.id, model: 'claude' } }),
      (r) => r.length === 1,
    );
    expect(one?.truncated).toBeNull();
    const wholeDetail = await request(readApi.app)
      .get(`/v1/responses/${one?.id}`)
      .set('Authorization', `Bearer ${whole.key}`);
    expect(wholeDetail.body.data.truncated).toBeNull();
  });

  it('re-judges stored answers when the terms change, verdicts and daily counts together', async () => {
    const w = await world();
    await collector.collectDay(today);
    await waitFor(
      () => db.response.count({ where: { propertyId: w.property.id } }),
      (n) => n === 4,
    );
    await db.property.update({ where: { id: w.property.id }, data: { brandTerms: ['Plausible'] } });
    expect(await rejudgeProperty(db, w.property.id)).toEqual({ applied: true });
    const rows = await db.response.findMany({ where: { propertyId: w.property.id } });
    expect(Object.fromEntries(rows.map((r) => [r.model, r.matchedTerm]))).toEqual({
      chatgpt: null,
      claude: null,
      gemini: 'Plausible',
      perplexity: 'Plausible',
    });
    const counts = await db.responseDailyCount.findMany({ where: { propertyId: w.property.id } });
    expect(Object.fromEntries(counts.map((c) => [c.model, [c.responses, c.mentions]]))).toEqual({
      chatgpt: [1, 0],
      claude: [1, 0],
      gemini: [1, 1],
      perplexity: [1, 1],
    });
  });
});
