import { answerCollectorConfigSchema } from '@vt/config';
import { formatUtcDay, utcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { isolatedQueuePrefix, scratchDatabase, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQuestionEnd, failedAttemptEnd, nextDailyRun } from './jobs/collection-status.ts';
import { geminiClient } from './platforms/gemini.ts';
import { openAiClient } from './platforms/openai.ts';
import { startAnswerCollector } from './start.ts';
import { propertyWithPrompts as propertyWithPromptsIn } from './testing/property-with-prompts.ts';
import { startVendorReplays } from './testing/vendor-replays.ts';
import { waitFor } from './testing/wait-for.ts';

// What the collector publishes for the console: which platforms it collects from (never a key),
// when the daily run is next, and what each run did per property and platform. On a database of
// its own: the platforms' rows are global to a database, and collector.test.ts writes its own.

const SECRET = 'sk-status-test-never-published';
const today = formatUtcDay(utcDay(new Date()));
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let fake: Awaited<ReturnType<typeof startVendorReplays>>;
let collector: Awaited<ReturnType<typeof startAnswerCollector>>;

const propertyWithPrompts = async (count: number) =>
  (await propertyWithPromptsIn(scratch.db, count, 'status')).property;

const runsOf = (propertyId: string) =>
  scratch.db.answerCollectionRun.findMany({ where: { propertyId }, orderBy: { platform: 'asc' } });

beforeAll(async () => {
  scratch = await scratchDatabase('collection_status');
  fake = await startVendorReplays((platform, prompt) => ({
    text: `For "${prompt}", Acme (${platform}).`,
    citations: [],
  }));
  const config = answerCollectorConfigSchema.parse({
    ...testEnv,
    DATABASE_URL: scratch.url,
    QUEUE_PREFIX: isolatedQueuePrefix(),
    ANSWER_COLLECTOR_METRICS_PORT: '0',
    HOST: '127.0.0.1',
    COLLECT_AT_UTC: '06:30',
  });
  collector = await startAnswerCollector(config, createLogger({ name: 'answer-collector', level: 'silent' }), {
    clients: [
      openAiClient({ apiKey: SECRET, model: 'gpt-4.1', baseUrl: fake.baseUrls.chatgpt }),
      geminiClient({ apiKey: SECRET, model: 'gemini-2.5-flash', baseUrl: fake.baseUrls.gemini }),
    ],
  });
}, 30_000);

afterAll(async () => {
  await collector?.close();
  await fake?.close();
  await scratch?.drop();
});

describe('collection status', () => {
  it('the next daily run is the next time COLLECT_AT_UTC strikes, today or tomorrow', () => {
    expect(nextDailyRun('06:30', new Date('2026-03-01T05:00:00Z')).toISOString()).toBe('2026-03-01T06:30:00.000Z');
    expect(nextDailyRun('06:30', new Date('2026-03-01T06:30:00Z')).toISOString()).toBe('2026-03-02T06:30:00.000Z');
    expect(nextDailyRun('00:00', new Date('2026-12-31T23:59:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('a retryable failure is retried until the last attempt, which gives the question up; a refusal gives up at once', () => {
    expect(failedAttemptEnd(true, { made: 0, of: 6 })).toBe('retrying');
    expect(failedAttemptEnd(true, { made: 4, of: 6 })).toBe('retrying');
    expect(failedAttemptEnd(true, { made: 5, of: 6 })).toBe('failed');
    expect(failedAttemptEnd(false, { made: 0, of: 6 })).toBe('failed');
  });

  it('a run finishes once every question is stored, skipped or given up, never on a retry', async () => {
    const property = await propertyWithPrompts(0);
    const run = await scratch.db.answerCollectionRun.create({
      data: { propertyId: property.id, platform: 'claude', day: new Date(today), trigger: 'daily', questions: 3 },
    });
    const read = () => scratch.db.answerCollectionRun.findUniqueOrThrow({ where: { id: run.id } });
    await countQuestionEnd(scratch.db, run.id, 'stored');
    await countQuestionEnd(scratch.db, run.id, 'retrying', 'HTTP 503');
    await countQuestionEnd(scratch.db, run.id, 'skipped');
    expect(await read()).toMatchObject({ stored: 1, skipped: 1, retries: 1, failed: 0, finishedAt: null });
    await Promise.all([
      countQuestionEnd(scratch.db, run.id, 'retrying', 'HTTP 503'),
      countQuestionEnd(scratch.db, run.id, 'failed', 'HTTP 503'),
    ]);
    const done = await read();
    expect(done).toMatchObject({ stored: 1, skipped: 1, retries: 2, failed: 1, lastError: 'HTTP 503' });
    expect(done.finishedAt).not.toBeNull();
  });

  it('publishes which platforms collect, why the others do not, and the next run, never a key', async () => {
    const rows = await scratch.db.answerPlatformStatus.findMany({ orderBy: { platform: 'asc' } });
    expect(rows.map((r) => [r.platform, r.configured, r.model, r.reason])).toEqual([
      ['chatgpt', true, 'gpt-4.1', null],
      ['claude', false, null, 'ANTHROPIC_API_KEY is not set'],
      ['copilot', false, null, 'Microsoft offers no public API that answers as Copilot does'],
      ['gemini', true, 'gemini-2.5-flash', null],
      ['perplexity', false, null, 'PERPLEXITY_API_KEY is not set'],
    ]);
    for (const row of rows) {
      expect(row.collectAtUtc).toBe('06:30');
      expect(row.nextRunAt.toISOString()).toBe(nextDailyRun('06:30', row.reportedAt).toISOString());
    }
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it('a collection of one property opens a manual run per platform and counts each question as it ends', async () => {
    const property = await propertyWithPrompts(2);
    const other = await propertyWithPrompts(1);
    await collector.collectDay(today, property.id);
    const runs = await waitFor(
      () => runsOf(property.id),
      (r) => r.length === 2 && r.every((run) => run.finishedAt !== null),
    );
    expect(runs.map((r) => [r.platform, r.trigger, r.questions, r.stored, r.skipped, r.failed])).toEqual([
      ['chatgpt', 'manual', 2, 2, 0, 0],
      ['gemini', 'manual', 2, 2, 0, 0],
    ]);
    expect(await scratch.db.response.count({ where: { propertyId: property.id } })).toBe(4);
    // Only that property was asked.
    expect(await runsOf(other.id)).toEqual([]);
    expect(await scratch.db.response.count({ where: { propertyId: other.id } })).toBe(0);

    // Again the same day: every question is answered, so nothing is asked and no run opens.
    const asked = fake.requests.length;
    await collector.collectDay(today, property.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(fake.requests.length).toBe(asked);
    expect(await runsOf(property.id)).toHaveLength(2);
  });

  it('a platform that refuses ends its questions as failed, with its status and not its answer', async () => {
    const property = await propertyWithPrompts(1);
    fake.fail('gemini', 400); // Gemini's documented answer to a bad key: 400 API_KEY_INVALID
    try {
      await collector.collectDay(today, property.id);
      const runs = await waitFor(
        () => runsOf(property.id),
        (r) => r.length === 2 && r.every((run) => run.finishedAt !== null),
      );
      expect(runs.map((r) => [r.platform, r.stored, r.failed, r.lastError])).toEqual([
        ['chatgpt', 1, 0, null],
        ['gemini', 0, 1, 'HTTP 400'],
      ]);
    } finally {
      fake.fail('gemini', 0);
    }
    // A collection started again asks the failed question afresh, and stores it.
    await collector.collectDay(today, property.id);
    const runs = await waitFor(
      () => runsOf(property.id),
      (r) => r.length === 3 && r.every((run) => run.finishedAt !== null),
    );
    expect(runs.filter((r) => r.platform === 'gemini').map((r) => [r.stored, r.failed])).toEqual(
      expect.arrayContaining([
        [0, 1],
        [1, 0],
      ]),
    );
    expect(await scratch.db.response.count({ where: { propertyId: property.id } })).toBe(2);
  });
});
