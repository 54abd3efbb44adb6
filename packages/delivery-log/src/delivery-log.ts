import type { DeliveryChannel, DeliveryLogEntry, Prisma, PrismaClient } from '@vt/db';
import { createDeliveryLogWriter } from './delivery-log-writer.ts';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

export { DELIVERY_LOG_SIZE } from './log-size.ts';

export interface DeliveryAttempt {
  propertyId: string;
  channel: DeliveryChannel;
  statusCode: number;
  /** What the endpoint did, in words. */
  outcome: string;
  reason?: string;
  fix?: string;
  linesReceived?: number;
  linesKept?: number;
  hostNote?: { count: number; hosts: string[] };
  idempotencyKey?: string;
  eventId?: string;
  requestBody?: string;
  result?: Prisma.InputJsonValue;
  leadId?: string;
}

/** Records one attempt and prunes the property's log for that channel to the newest 50. */
export async function recordDeliveryAttempt(db: PrismaClient, attempt: DeliveryAttempt): Promise<void> {
  const writer = createDeliveryLogWriter(db);
  const stored = writer.record(attempt);
  await writer.flush();
  await stored;
}

/** The accepted attempt that first carried this Idempotency-Key, while it is still in the log. */
export async function findNamedCrawlBatch(
  db: PrismaClient,
  propertyId: string,
  idempotencyKey: string,
): Promise<{ kept: number; received: number } | null> {
  const row = await db.deliveryLogEntry.findFirst({
    where: { propertyId, channel: 'crawl', idempotencyKey, statusCode: 202 },
    orderBy: { createdAt: 'asc' },
    select: { linesKept: true, linesReceived: true },
  });
  return row ? { kept: row.linesKept ?? 0, received: row.linesReceived ?? 0 } : null;
}

export function recentDeliveries(
  db: PrismaClient,
  propertyId: string,
  channel: DeliveryChannel,
  take = DELIVERY_LOG_SIZE,
): Promise<DeliveryLogEntry[]> {
  return db.deliveryLogEntry.findMany({
    where: { propertyId, channel },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}
