import type { DeliveryChannel, DeliveryLogEntry, PrismaClient } from '@vt/db';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

// Reading the delivery log; delivery-log-writer.ts writes it.

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
