import { answerCollectorConfigSchema } from '@vt/config';
import { formatUtcDay, utcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { collectAnswerJob } from '@vt/queue';
import { isolatedQueuePrefix, scratchDatabase, testEnv } from '@vt/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { collectAnswer, MAX_PLATFORM_PAUSE_MS, PlatformPaused, platformPauseMs } from './jobs/collect-answer.ts';
import { anthropicClient } from './platforms/anthropic.ts';
import { PlatformError } from './platforms/index.ts';
import { startAnswerCollector } from './start.ts';
import { propertyWithPrompts } from './testing/property-with-prompts.ts';
import { recordingClient } from './testing/recording-client.ts';
import { startVendorReplays, vendorFixture } from './testing/vendor-replays.ts';
import { waitFor } from './testing/wait-for.ts';

// Issue 32 item 4: a 429 pauses the platform, not just the one question. Claude is asked through
// its SDK against the replay server, which answers the first question with Anthropic's documented
// 429 and a Retry-After; no other Claude question may be sent before it has passed, on any
// replica (the pause is the platform queue's, in Redis), while Gemini goes on. The refused request
// goes back to the day's budget, so the budget is not spent twice on one question. On the real
// Postgres and Redis, each test on a database of its own.

const today = formatUtcDay(utcDay(new Date()));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a 429 pauses the platform', () => {
  it('no Claude question is sent before Retry-After has passed, Gemini goes on, the budget is spent once, each answer stored once', async () => {
    const scratch = await scratchDatabase('platform_pause');
    cleanups.push(() => scratch.drop());
    const db = scratch.db;
    const fake = await startVendorReplays((_platform, prompt) => ({ text: `Acme answers ${prompt}`, citations: [] }));
    cleanups.push(() => fake.close());
    const limited = vendorFixture('claude', 'error-429');
    fake.next('claude', { ...limited, headers: { ...limited.headers, 'retry-after': '2' } });
    // Gemini answers only once Claude has been refused, so its questions are sent during the pause.
    const geminiAt: number[] = [];
    const gemini = recordingClient('gemini', async (prompt) => {
      await waitFor(
        async () => fake.requestsOf('claude').length,
        (n) => n > 0,
      );
      geminiAt.push(Date.now());
      return { markdown: `Acme answers ${prompt}`, citations: [] };
    });
    const config = answerCollectorConfigSchema.parse({
      ...testEnv,
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: isolatedQueuePrefix(),
      ANSWER_COLLECTOR_METRICS_PORT: '0',
      HOST: '127.0.0.1',
      // One question in flight per platform: what is sent after the 429 is what the pause let through.
      COLLECT_CONCURRENCY_PER_PLATFORM: '1',
      // Exactly one request per question: a second one taken for the refused question would skip one.
      ANTHROPIC_DAILY_REQUESTS: '4',
    });
    const collector = await startAnswerCollector(config, createLogger({ name: 'answer-collector', level: 'silent' }), {
      clients: [
        anthropicClient({ apiKey: 'test-key', model: 'claude-sonnet-5-5', baseUrl: fake.baseUrls.claude }),
        gemini,
      ],
    });
    cleanups.push(() => collector.close());
    const { property } = await propertyWithPrompts(db, 4, 'pause');

    await collector.collectDay(today);
    const rows = await waitFor(
      () => db.response.findMany({ where: { propertyId: property.id } }),
      (r) => r.length === 8,
      30_000,
    );

    const [refused, ...after] = fake.requestsOf('claude');
    expect(after).toHaveLength(4); // the refused question once more, and the three others
    for (const request of after) expect(request.at - (refused?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    // The Claude queue was paused, Gemini's not: Gemini was asked while Claude waited.
    expect(geminiAt).toHaveLength(4);
    expect(geminiAt.some((at) => at < (refused?.at ?? 0) + 2_000)).toBe(true);

    // Each prompt × platform × day once; the budget spent once per question.
    const keys = rows.map((r) => `${r.promptId} ${r.model} ${r.day.toISOString()}`);
    expect(new Set(keys).size).toBe(8);
    const usage = await db.answerPlatformUsage.findUnique({
      where: { platform_day: { platform: 'claude', day: new Date(`${today}T00:00:00Z`) } },
    });
    expect(usage).toMatchObject({ requests: 4, skippedBudget: 0 });
    const run = await waitFor(
      () => db.answerCollectionRun.findFirst({ where: { propertyId: property.id, platform: 'claude' } }),
      (r) => r?.finishedAt != null,
    );
    expect(run).toMatchObject({ questions: 4, stored: 4, skipped: 0, failed: 0, retries: 1, lastError: 'HTTP 429' });
    // The pause is over: nothing of Claude's waits.
    const counts = await collector.queue(collectAnswerJob('claude')).getJobCounts('waiting', 'delayed', 'failed');
    expect(counts).toEqual({ waiting: 0, delayed: 0, failed: 0 });
  }, 60_000);

  it('a question of a paused platform is not sent and takes nothing from the budget', async () => {
    const scratch = await scratchDatabase('platform_paused_question');
    cleanups.push(() => scratch.drop());
    const db = scratch.db;
    const { property, prompts } = await propertyWithPrompts(db, 1, 'pause');
    const client = recordingClient('claude');
    const data = { propertyId: property.id, promptId: prompts[0]?.id ?? '', platform: 'claude', day: today };
    await expect(collectAnswer(db, client, data, { dailyRequests: 5, pausedForMs: async () => 1_500 })).rejects.toEqual(
      new PlatformPaused(1_500),
    );
    expect(client.asked).toHaveLength(0);
    expect(await db.answerPlatformUsage.count()).toBe(0);
    // Once it has passed, the question is asked, and counted once.
    expect(await collectAnswer(db, client, data, { dailyRequests: 5, pausedForMs: async () => 0 })).toEqual({
      applied: true,
    });
    expect(client.asked).toHaveLength(1);
    expect(await db.answerPlatformUsage.findFirst()).toMatchObject({ requests: 1 });
  });

  it('pauses for the Retry-After, at most 15 minutes, 30 s without one; only on a 429', () => {
    expect(platformPauseMs(new PlatformError('claude', 'HTTP 429', true, 429, 7))).toBe(7_000);
    expect(platformPauseMs(new PlatformError('gemini', 'HTTP 429', true, 429, 86_400))).toBe(MAX_PLATFORM_PAUSE_MS);
    expect(MAX_PLATFORM_PAUSE_MS).toBe(900_000);
    expect(platformPauseMs(new PlatformError('chatgpt', 'HTTP 429', true, 429))).toBe(30_000);
    expect(platformPauseMs(new PlatformError('chatgpt', 'HTTP 503', true, 503, 5))).toBeNull();
    expect(platformPauseMs(new Error('boom'))).toBeNull();
  });
});
