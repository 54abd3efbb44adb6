import { enableRules, logCrawlAttempt, seedAlertTeam } from '@vt/alerts/testing';
import { startMailCatcher } from '@vt/mail-catcher';
import { startWebhookReceiver } from '@vt/outgoing-webhooks/testing';
import { alertEvaluationJob, createQueue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import {
  isolatedQueuePrefix,
  type RunningApp,
  sampleSum,
  scrape,
  scratchDatabase,
  startApp,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from './testing/wait-until.ts';

// Two notifier processes (the compiled app) on one database and one Redis evaluate the same firing
// condition, every second on the scheduler and, on top, a burst of replayed evaluation jobs both
// take at once: exactly one email reaches the real SMTP server and one POST the real receiver.

const scratch = await scratchDatabase('notifier_alerts');
const db = scratch.db;
const prefix = isolatedQueuePrefix();
const catcher = await startMailCatcher();
const receiver = await startWebhookReceiver();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const evaluations = createQueue(alertEvaluationJob, redis, prefix);
const replicas: RunningApp[] = [];

afterAll(async () => {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  const exits = await Promise.all(replicas.map((replica) => replica.exited));
  await evaluations.obliterate({ force: true });
  await evaluations.close();
  await closeRedisConnection(redis);
  await catcher.close();
  await receiver.close();
  await scratch.drop();
  expect(exits).toEqual(replicas.map(() => 0));
});

describe('two notifier replicas evaluating alerts', () => {
  it('send a firing alert once: one email, one webhook POST', async () => {
    const team = await seedAlertTeam(db, uniqueSlug('replicas'));
    await db.webhookDestination.create({ data: { propertyId: team.propertyId, format: 'slack', url: receiver.url } });
    await enableRules(db, team.propertyId, [{ kind: 'crawl_rejecting', emailUserIds: [team.owner.id] }]);
    await logCrawlAttempt(db, team.propertyId, new Date(Date.now() - 3_600_000), 401);

    const env = {
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: prefix,
      SMTP_URL: catcher.url,
      MAIL_FROM: 'alerts@vt.example',
      MAIL_SWEEP_INTERVAL_MS: '100',
      ALERT_EVALUATION_INTERVAL_MS: '1000',
      ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CONSOLE_PUBLIC_URL: 'https://console.example.test',
    };
    replicas.push(
      ...(await Promise.all([1, 2].map(() => startApp('apps/notifier/src/main.ts', 'NOTIFIER_PORT', env)))),
    );
    // Replays beside the scheduler's ticks, spread over the time the condition needs to be held.
    for (let n = 0; n < 12; n++) {
      await evaluations.addBulk(
        [0, 1].map((k) => ({ name: alertEvaluationJob.name, data: {}, opts: { jobId: `replay-${n}-${k}` } })),
      );
      await new Promise((r) => setTimeout(r, 150));
    }

    const message = await catcher.waitForMessage((m) => m.to === team.owner.email, 20_000);
    expect(message.subject).toMatch(/: Crawl ingest is turning every batch away$/);
    expect(message.text).toContain(`https://console.example.test/t/${team.teamId}/p/${team.propertyId}/crawl`);
    const [post] = await receiver.waitFor(1, 20_000);
    expect(JSON.parse(post?.body ?? '{}').text).toMatch(/^Crawl ingest is turning every batch away: Shop/);

    // More ticks and replays: nothing more is sent.
    for (let n = 0; n < 6; n++) {
      await evaluations.add(alertEvaluationJob.name, {}, { jobId: `late-replay-${n}` });
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(catcher.messages()).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(await db.alertNotification.count({ where: { propertyId: team.propertyId } })).toBe(1);

    const figures = await Promise.all(replicas.map(async (r) => scrape(`${r.url}/metrics`)));
    // Both evaluated: the exactly-once above is between two evaluators, not one.
    expect(figures.map((f) => sampleSum(f, 'vt_alert_evaluations_total') > 0)).toEqual([true, true]);
    expect(figures.reduce((sum, f) => sum + sampleSum(f, 'vt_alert_notifications_total'), 0)).toBe(1);
    await waitUntil(
      'the email recorded as sent',
      async () => (await db.outgoingEmail.count({ where: { status: 'sent' } })) === 1,
    );
  }, 90_000);
});
