import { enableRules, logCrawlAttempt, seedAlertTeam } from '@vt/alerts/testing';
import { startWebhookReceiver } from '@vt/outgoing-webhooks/testing';
import { alertEvaluationJob } from '@vt/queue';
import { sampleSum, scrape, uniqueSlug } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { notifierReplicaWorld } from './testing/replica-world.ts';
import { waitUntil } from './testing/wait-until.ts';

// Two notifier processes (the compiled app) on one database and one Redis evaluate the same firing
// condition, every second on the scheduler and, on top, a burst of replayed evaluation jobs both
// take at once: exactly one email reaches the real SMTP server and one POST the real receiver.

const {
  db,
  catcher,
  queue: evaluations,
  replicas,
  startReplicas,
} = await notifierReplicaWorld('notifier_alerts', alertEvaluationJob);
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

describe('two notifier replicas evaluating alerts', () => {
  it('send a firing alert once: one email, one webhook POST', async () => {
    const team = await seedAlertTeam(db, uniqueSlug('replicas'));
    await db.webhookDestination.create({ data: { propertyId: team.propertyId, format: 'slack', url: receiver.url } });
    await enableRules(db, team.propertyId, [{ kind: 'crawl_rejecting', emailUserIds: [team.owner.id] }]);
    await logCrawlAttempt(db, team.propertyId, new Date(Date.now() - 3_600_000), 401);

    await startReplicas(2, {
      MAIL_FROM: 'alerts@vt.example',
      MAIL_SWEEP_INTERVAL_MS: '100',
      ALERT_EVALUATION_INTERVAL_MS: '1000',
      ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CONSOLE_PUBLIC_URL: 'https://console.example.test',
    });
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
