import { answerCollectorConfigSchema } from '@vt/config';
import { formatUtcDay, type PrismaClient, utcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { collectAnswerJob } from '@vt/queue';
import { isolatedQueuePrefix, scratchDatabase, testEnv } from '@vt/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { retryDelayMs } from './jobs/collect-answer.ts';
import { questionJobId } from './jobs/schedule-day.ts';
import { spreadDelayMs } from './jobs/spread.ts';
import { PlatformError } from './platforms/index.ts';
import { startAnswerCollector } from './start.ts';
import { propertyWithPrompts } from './testing/property-with-prompts.ts';
import { recordingClient } from './testing/recording-client.ts';
import { waitFor } from './testing/wait-for.ts';

// Issue 32 item 4, within a budget, on the real Postgres and Redis: a platform's daily request
// budget shared by every collector replica (past it the questions are skipped, not sent and not
// retried), Retry-After honoured by the retry's delay, the daily run spread over its window, and a
// day run again or replayed storing each prompt × platform × day once. Each test on a database of
// its own: a day's schedule asks every paid property of the database, and the budget is per
// platform and day.

const today = formatUtcDay(utcDay(new Date()));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scratch(label: string) {
  const s = await scratchDatabase(`budget_${label}`);
  cleanups.push(() => s.drop());
  return s;
}

type Clients = Parameters<typeof startAnswerCollector>[2];
async function collector(url: string, prefix: string, env: Record<string, string>, options: Clients) {
  const config = answerCollectorConfigSchema.parse({
    ...testEnv,
    DATABASE_URL: url,
    QUEUE_PREFIX: prefix,
    ANSWER_COLLECTOR_METRICS_PORT: '0',
    HOST: '127.0.0.1',
    ...env,
  });
  const started = await startAnswerCollector(
    config,
    createLogger({ name: 'answer-collector', level: 'silent' }),
    options,
  );
  cleanups.push(() => started.close());
  return started;
}

const usageOf = (db: PrismaClient, platform: string) =>
  db.answerPlatformUsage.findUnique({ where: { platform_day: { platform, day: new Date(`${today}T00:00:00Z`) } } });

describe('within a budget', () => {
  it('budget reached: no more requests reach the platform, the rest are recorded skipped_budget and not retried', async () => {
    const { url, db } = await scratch('reached');
    const client = recordingClient('chatgpt');
    const c = await collector(url, isolatedQueuePrefix(), { OPENAI_DAILY_REQUESTS: '3' }, { clients: [client] });
    const { property } = await propertyWithPrompts(db, 8, 'budget');
    await c.collectDay(today);
    const run = await waitFor(
      () => db.answerCollectionRun.findFirst({ where: { propertyId: property.id, platform: 'chatgpt' } }),
      (r) => r?.finishedAt != null,
    );
    expect(client.asked).toHaveLength(3);
    expect(await db.response.count({ where: { propertyId: property.id } })).toBe(3);
    expect(run).toMatchObject({ questions: 8, stored: 3, skipped: 5, failed: 0, retries: 0 });
    expect(await usageOf(db, 'chatgpt')).toMatchObject({ requests: 3, skippedBudget: 5 });
    // Skipped questions ended (completed), not failed or delayed for a retry into tomorrow.
    const queue = c.queue(collectAnswerJob('chatgpt'));
    expect(await queue.getJobCounts('delayed', 'failed', 'waiting')).toEqual({ delayed: 0, failed: 0, waiting: 0 });
    // The console reads the budget from the collector's report beside the counter.
    expect(await db.answerPlatformStatus.findUnique({ where: { platform: 'chatgpt' } })).toMatchObject({
      dailyRequestBudget: 3,
    });
    // Asking the day again sends nothing more today.
    await c.collectDay(today);
    await waitFor(
      () => usageOf(db, 'chatgpt'),
      (u) => (u?.skippedBudget ?? 0) === 10,
    );
    expect(client.asked).toHaveLength(3);
  }, 30_000);

  it('two collector replicas share one budget', async () => {
    const { url, db } = await scratch('shared');
    const prefix = isolatedQueuePrefix();
    // Slow answers, so both replicas hold questions at once.
    const slow = (prompt: string) =>
      new Promise<{ markdown: string; citations: string[] }>((r) =>
        setTimeout(() => r({ markdown: `Acme: ${prompt}`, citations: [] }), 200),
      );
    const one = recordingClient('perplexity', slow);
    const two = recordingClient('perplexity', slow);
    const env = { PERPLEXITY_DAILY_REQUESTS: '7', COLLECT_CONCURRENCY_PER_PLATFORM: '4' };
    const a = await collector(url, prefix, env, { clients: [one] });
    await collector(url, prefix, env, { clients: [two] });
    const { property } = await propertyWithPrompts(db, 20, 'budget');
    await a.collectDay(today);
    await waitFor(
      () => db.answerCollectionRun.findFirst({ where: { propertyId: property.id } }),
      (r) => r?.finishedAt != null,
    );
    expect(one.asked.length + two.asked.length).toBe(7);
    expect(one.asked.length).toBeGreaterThan(0);
    expect(two.asked.length).toBeGreaterThan(0);
    expect(await usageOf(db, 'perplexity')).toMatchObject({ requests: 7, skippedBudget: 13 });
    expect(await db.response.count({ where: { propertyId: property.id } })).toBe(7);
  }, 30_000);

  it('<PLATFORM>_CONCURRENCY caps the questions in flight across replicas, whatever each replica’s own concurrency', async () => {
    const { url, db } = await scratch('concurrency');
    const prefix = isolatedQueuePrefix();
    let inFlight = 0;
    let most = 0;
    const held = async (prompt: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 100));
      inFlight--;
      return { markdown: `Acme: ${prompt}`, citations: [] };
    };
    const env = { GEMINI_CONCURRENCY: '2', COLLECT_CONCURRENCY_PER_PLATFORM: '5' };
    const one = recordingClient('gemini', held);
    const two = recordingClient('gemini', held);
    const a = await collector(url, prefix, env, { clients: [one] });
    await collector(url, prefix, env, { clients: [two] });
    const { property } = await propertyWithPrompts(db, 12, 'budget');
    await a.collectDay(today);
    await waitFor(
      () => db.response.count({ where: { propertyId: property.id } }),
      (n) => n === 12,
    );
    expect(most).toBe(2);
    expect(await a.queue(collectAnswerJob('gemini')).getGlobalConcurrency()).toBe(2);
  }, 30_000);

  it('a Retry-After of N seconds delays the retry by at least N seconds; without one, 30 s doubling less jitter', async () => {
    const { url, db } = await scratch('retry_after');
    const client = recordingClient('claude', () => {
      throw new PlatformError('claude', 'HTTP 429: slow down', true, 429, 120);
    });
    const c = await collector(url, isolatedQueuePrefix(), {}, { clients: [client] });
    const { prompts } = await propertyWithPrompts(db, 1, 'budget');
    await c.collectDay(today);
    const queue = c.queue(collectAnswerJob('claude'));
    const id = questionJobId({ promptId: prompts[0]?.id as string, platform: 'claude', day: today });
    const job = await waitFor(
      async () => {
        const j = await queue.getJob(id);
        return j && (await j.getState()) === 'delayed' ? j : undefined;
      },
      (j) => j !== undefined,
    );
    expect(job?.attemptsMade).toBe(1);
    expect(job?.delay).toBeGreaterThanOrEqual(120_000);
    expect(job?.delay).toBeLessThanOrEqual(132_000);
    expect(client.asked).toHaveLength(1);

    const noHint = new PlatformError('claude', 'HTTP 503', true, 503);
    for (let i = 0; i < 50; i++) {
      expect(retryDelayMs(noHint, 0)).toBeGreaterThanOrEqual(15_000);
      expect(retryDelayMs(noHint, 0)).toBeLessThanOrEqual(30_000);
      expect(retryDelayMs(noHint, 2)).toBeGreaterThanOrEqual(60_000);
    }
    expect(retryDelayMs(new PlatformError('claude', 'HTTP 429', true, 429, 7), 5, () => 0)).toBe(7000);
  }, 30_000);

  it('the daily run spreads its questions over the window at each prompt’s instant; ops and the console ask at once', async () => {
    const { url, db } = await scratch('spread');
    const client = recordingClient('gemini');
    const at = new Date(`${today}T06:00:00Z`);
    const c = await collector(
      url,
      isolatedQueuePrefix(),
      { COLLECT_AT_UTC: '06:00', COLLECT_SPREAD_HOURS: '10' },
      { clients: [client], now: () => at },
    );
    const { property, prompts } = await propertyWithPrompts(db, 5, 'budget');
    await c.collectDay(today, undefined, true);
    const queue = c.queue(collectAnswerJob('gemini'));
    const idOf = (promptId: string) => questionJobId({ promptId, platform: 'gemini', day: today });
    const jobs = await waitFor(
      () => Promise.all(prompts.map((p) => queue.getJob(idOf(p.id)))),
      (js) => js.every(Boolean),
    );
    for (const [i, job] of jobs.entries()) {
      const promptId = prompts[i]?.id as string;
      expect(job?.delay).toBe(spreadDelayMs(promptId, today, '06:00', 10, at));
      expect(job?.delay).toBeGreaterThan(0);
      expect(job?.delay).toBeLessThan(10 * 3_600_000);
    }
    expect(new Set(jobs.map((j) => j?.delay)).size).toBe(5);
    expect(client.asked).toHaveLength(0);

    // A collection started by hand (ops, the console) is asked at once, the questions holding for
    // their instant included.
    await c.collectDay(today, property.id);
    await waitFor(
      () => db.response.count({ where: { propertyId: property.id } }),
      (n) => n === 5,
    );
    expect(client.asked).toHaveLength(5);
  }, 30_000);

  it('a run resumed after a crash, and replayed jobs, store each prompt × platform × day once and ask nothing twice', async () => {
    const { url, db } = await scratch('resume');
    const prefix = isolatedQueuePrefix();
    // The first collector dies after two answers: later questions fail as a killed process's would.
    let alive = true;
    const first = recordingClient('chatgpt', (prompt, n) => {
      if (n > 2 || !alive) throw new PlatformError('chatgpt', 'request failed: process killed', true);
      return { markdown: `Acme: ${prompt}`, citations: [] };
    });
    const a = await collector(url, prefix, {}, { clients: [first] });
    const { property, prompts } = await propertyWithPrompts(db, 6, 'budget');
    await a.collectDay(today);
    await waitFor(
      () => db.response.count({ where: { propertyId: property.id } }),
      (n) => n === 2,
    );
    alive = false;
    await a.close();
    // The jobs the dead process left (delayed for retry) are gone with its Redis state: a restart
    // over a fresh queue, as after losing Redis, must ask only what is missing.
    const second = recordingClient('chatgpt');
    const b = await collector(url, isolatedQueuePrefix(), {}, { clients: [second] });
    await b.collectDay(today);
    await waitFor(
      () => db.response.count({ where: { propertyId: property.id } }),
      (n) => n === 6,
    );
    expect(second.asked).toHaveLength(4);
    // Replays: the day again, and every question's job again under new ids (a duplicated delivery).
    await b.collectDay(today);
    const queue = b.queue(collectAnswerJob('chatgpt'));
    for (const p of prompts) {
      await queue.add('collect-answer', { propertyId: property.id, promptId: p.id, platform: 'chatgpt', day: today });
    }
    await waitFor(
      () => queue.getJobCounts('waiting', 'active', 'delayed'),
      (n) => (n.waiting ?? 0) + (n.active ?? 0) + (n.delayed ?? 0) === 0,
    );
    expect(second.asked).toHaveLength(4);
    const rows = await db.response.groupBy({ by: ['promptId'], where: { propertyId: property.id }, _count: true });
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r._count === 1)).toBe(true);
  }, 40_000);
});
