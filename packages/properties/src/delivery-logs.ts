import type { DeliveryLogEntry, PrismaClient } from '@vt/db';
import { recentDeliveries, WEBHOOK_LOG_SHOWN } from '@vt/delivery-log';

/**
 * What every delivery-log row shows: when, the answer given, what the endpoint did, and for a
 * rejection why and the fix; for a summary of unauthenticated attempts, how many since when.
 */
const attempt = (a: DeliveryLogEntry) => ({
  at: a.createdAt.toISOString(),
  statusCode: a.statusCode,
  outcome: a.outcome,
  reason: a.reason,
  fix: a.fix,
  authenticated: a.authenticated,
  attempts: a.attempts,
  firstAttemptAt: a.firstAttemptAt?.toISOString() ?? null,
});

/** The crawl delivery log as the setup dialog shows it: the 50 kept attempts, newest first (CRAWL-28). */
export async function crawlLog(db: PrismaClient, propertyId: string) {
  const attempts = await recentDeliveries(db, propertyId, 'crawl');
  return {
    propertyId,
    entries: attempts.map((a) => ({
      ...attempt(a),
      linesReceived: a.linesReceived,
      linesMatched: a.linesKept,
      hostNote: a.hostNote as { count: number; hosts: string[] } | null,
    })),
  };
}

/** The webhook panel: the 20 newest of the 50 kept attempts, bodies only where the signature passed (LEAD-15). */
export async function webhookLog(db: PrismaClient, propertyId: string) {
  const attempts = await recentDeliveries(db, propertyId, 'webhook', WEBHOOK_LOG_SHOWN);
  return {
    propertyId,
    entries: attempts.map((a) => ({
      ...attempt(a),
      eventId: a.eventId,
      // Null on attempts that did not pass the signature check: the gateway keeps no body for them.
      requestBody: a.requestBody,
    })),
  };
}
