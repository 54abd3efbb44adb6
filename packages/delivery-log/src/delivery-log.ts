import type { DeliveryChannel, DeliveryLogEntry, PrismaClient } from '@vt/db';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

// Reading the delivery log; delivery-log-writer.ts writes it.

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
