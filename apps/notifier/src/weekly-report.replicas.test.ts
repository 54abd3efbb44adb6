import { startMailCatcher } from '@vt/mail-catcher';
import { createQueue, weeklyReportsJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, type RunningApp, scratchDatabase, startApp, testEnv, uniqueSlug } from '@vt/test-support';
import { reportDedupeKey, reportWeekAt } from '@vt/weekly-report';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from './testing/wait-until.ts';

// Two notifier processes (the compiled app) evaluating weekly reports on one database and one
// queue, their scheduled ticks every 100 ms and evaluations replayed on top, several at once:
// each subscriber gets this week's report exactly once.

const N = 6;
const scratch = await scratchDatabase('notifier_weekly_reports');
const db = scratch.db;
const prefix = isolatedQueuePrefix();
const catcher = await startMailCatcher();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(weeklyReportsJob, redis, prefix);
const replicas: RunningApp[] = [];

afterAll(async () => {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  const exits = await Promise.all(replicas.map((replica) => replica.exited));
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(redis);
  await catcher.close();
  await scratch.drop();
  expect(exits).toEqual(replicas.map(() => 0));
});

/** A zone where this week's report is due already, whatever the hour the test runs at. */
const dueZone = ['UTC', 'Pacific/Honolulu', 'Asia/Tokyo'].find(
  (zone) => reportWeekAt(new Date(), zone).dueAt.getTime() < Date.now() - 60_000,
) as string;

describe('two notifier replicas', () => {
  it(`send each of ${N} subscribers this week’s report exactly once`, async () => {
    const slug = uniqueSlug('weekly');
    const team = await db.team.create({ data: { name: slug, slug, settings: { timeZone: dueZone } } });
    const property = await db.property.create({ data: { teamId: team.id, name: 'Shop', domain: 'shop.example' } });
    const users = [];
    for (let n = 0; n < N; n++) {
      const user = await db.user.create({ data: { email: `reader-${n}-${slug}@example.com`, name: `Reader ${n}` } });
      await db.membership.create({ data: { teamId: team.id, userId: user.id, role: 'member' } });
      await db.reportSubscription.create({
        data: { userId: user.id, propertyId: property.id, createdAt: new Date(Date.now() - 30 * 86_400_000) },
      });
      users.push(user);
    }
    const env = {
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: prefix,
      SMTP_URL: catcher.url,
      MAIL_FROM: 'notify@vt.example',
      MAIL_SWEEP_INTERVAL_MS: '100',
      WEEKLY_REPORT_INTERVAL_MS: '100',
      CONSOLE_PUBLIC_URL: 'https://console.example.test',
    };
    replicas.push(
      ...(await Promise.all([1, 2].map(() => startApp('apps/notifier/src/main.ts', 'NOTIFIER_PORT', env)))),
    );
    // Replayed evaluations, beside the scheduled ones: both replicas evaluate at the same time.
    for (let i = 0; i < 6; i++) await queue.add(weeklyReportsJob.name, {}, { jobId: `replayed-${i}` });

    await waitUntil('every report received', async () => catcher.messages().length >= N, 30_000);
    // Time for a second copy to be queued and arrive, were one on its way (many ticks).
    await new Promise((r) => setTimeout(r, 1500));
    const received = catcher.messages().map((m) => m.envelope.to.join(','));
    expect(received.sort()).toEqual(users.map((u) => u.email).sort());
    const week = reportWeekAt(new Date(), dueZone).week;
    const keys = (await db.outgoingEmail.findMany({ where: { teamId: team.id } })).map((e) => e.dedupeKey);
    expect(keys.sort()).toEqual(users.map((u) => reportDedupeKey(u.id, property.id, week)).sort());
    for (const message of catcher.messages()) {
      expect(message.text).toContain('AI crawler hits: 0');
      expect(message.html).toContain('Shop');
    }
  }, 90_000);
});
