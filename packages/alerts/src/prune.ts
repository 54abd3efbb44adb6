import type { PrismaClient } from '@vt/db';

/** How long the record of a sent alert is kept: the console lists the recent ones. */
export const ALERT_NOTIFICATIONS_KEPT_DAYS = 90;

/**
 * Deletes the records of alerts sent more than `ALERT_NOTIFICATIONS_KEPT_DAYS` before `now`.
 * Safe for exactly-once: a record's event id names its rule's episode (or a competitor's first
 * day), which a later evaluation never produces again, so no old key is needed to refuse a repeat.
 */
export async function pruneAlertNotifications(db: PrismaClient, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ALERT_NOTIFICATIONS_KEPT_DAYS * 86_400_000);
  const { count } = await db.alertNotification.deleteMany({ where: { occurredAt: { lt: before } } });
  return count;
}
