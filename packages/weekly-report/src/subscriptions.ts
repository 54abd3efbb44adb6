import { verifyReportUnsubscribeToken } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';

// A person's own subscriptions to properties' weekly reports. The console checks that the
// property is of the caller's team before calling these; the notifier checks membership again
// when it sends.

export interface ReportSubscriptionState {
  subscribed: boolean;
  /** When the person subscribed; null when not subscribed. */
  since: Date | null;
}

export async function reportSubscriptionOf(
  db: PrismaClient,
  userId: string,
  propertyId: string,
): Promise<ReportSubscriptionState> {
  const row = await db.reportSubscription.findUnique({ where: { userId_propertyId: { userId, propertyId } } });
  return { subscribed: row !== null, since: row?.createdAt ?? null };
}

/** Subscribes; subscribing again changes nothing (the first subscription, and its link, stay). */
export async function subscribeToReport(db: PrismaClient, userId: string, propertyId: string) {
  await db.reportSubscription.createMany({ data: [{ userId, propertyId }], skipDuplicates: true });
  return reportSubscriptionOf(db, userId, propertyId);
}

export async function unsubscribeFromReport(db: PrismaClient, userId: string, propertyId: string) {
  await db.reportSubscription.deleteMany({ where: { userId, propertyId } });
  return reportSubscriptionOf(db, userId, propertyId);
}

/**
 * A followed unsubscribe link: deletes the subscription its token names. `invalid` for a token
 * this key never signed; `unsubscribed: false` when it is gone already (unsubscribed before, by
 * the link or in the console), which the page says plainly rather than as an error.
 */
export async function unsubscribeWithToken(
  db: PrismaClient,
  key: string,
  token: string,
): Promise<'invalid' | { unsubscribed: boolean; propertyName: string | null }> {
  const subscriptionId = verifyReportUnsubscribeToken(key, token);
  if (!subscriptionId) return 'invalid';
  const deleted = await db.$queryRaw<{ name: string }[]>`
    DELETE FROM report_subscriptions s USING properties p
    WHERE s.id = ${subscriptionId}::uuid AND p.id = s.property_id
    RETURNING p.name`;
  return { unsubscribed: deleted.length > 0, propertyName: deleted[0]?.name ?? null };
}
