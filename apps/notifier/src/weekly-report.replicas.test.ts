import { weeklyReportsJob } from '@vt/queue';
import { uniqueSlug } from '@vt/test-support';
import { reportDedupeKey, reportWeekAt } from '@vt/weekly-report';
import { describe, expect, it } from 'vitest';
import { notifierReplicaWorld } from './testing/replica-world.ts';
import { waitUntil } from './testing/wait-until.ts';

// Two notifier processes (the compiled app) evaluating weekly reports on one database and one
// queue, their scheduled ticks every 100 ms and evaluations replayed on top, several at once:
// each subscriber gets this week's report exactly once.

const N = 6;
const { db, catcher, queue, startReplicas } = await notifierReplicaWorld('notifier_weekly_reports', weeklyReportsJob);

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
    await startReplicas(2, {
      MAIL_FROM: 'notify@vt.example',
      MAIL_SWEEP_INTERVAL_MS: '100',
      WEEKLY_REPORT_INTERVAL_MS: '100',
      CONSOLE_PUBLIC_URL: 'https://console.example.test',
    });
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
