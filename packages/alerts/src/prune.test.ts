import type { PrismaClient } from '@vt/db';
import { testDb, uniqueSlug } from '@vt/test-support';
import { expect, it } from 'vitest';
import { ALERT_NOTIFICATIONS_KEPT_DAYS, pruneAlertNotifications } from './prune.ts';
import { seedAlertTeam } from './testing/seed.ts';

const db: PrismaClient = testDb();
const DAY = 86_400_000;

it(`keeps the records of alerts sent in the last ${ALERT_NOTIFICATIONS_KEPT_DAYS} days and deletes older ones`, async () => {
  const { propertyId } = await seedAlertTeam(db, uniqueSlug('prune'));
  // Long ago, so the records other test files write (sent about now) are never old enough to go.
  const now = new Date('2000-01-01T00:00:00.000Z');
  const record = (label: string, occurredAt: Date) =>
    db.alertNotification.create({
      data: {
        propertyId,
        kind: 'crawl_rejecting',
        type: 'alert.firing',
        eventId: `${propertyId}:${label}`,
        occurredAt,
        subject: label,
      },
    });
  await record('old', new Date(now.getTime() - (ALERT_NOTIFICATIONS_KEPT_DAYS + 1) * DAY));
  await record('kept', new Date(now.getTime() - (ALERT_NOTIFICATIONS_KEPT_DAYS - 1) * DAY));

  expect(await pruneAlertNotifications(db, now)).toBe(1);
  const left = await db.alertNotification.findMany({ where: { propertyId }, select: { subject: true } });
  expect(left).toEqual([{ subject: 'kept' }]);
});
