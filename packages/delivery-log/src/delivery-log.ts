import type { DeliveryChannel, DeliveryLogEntry, PrismaClient } from '@vt/db';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

// Reading the delivery log; delivery-log-writer.ts writes it.

/**
 * A log's newest `take` attempts of the property's own senders, with the summaries of the
 * unauthenticated attempts (one per reason) in among them by their newest attempt: the summaries
 * never take the place of a sender's row, however many attempts they count.
 */
export async function recentDeliveries(
  db: PrismaClient,
  propertyId: string,
  channel: DeliveryChannel,
  take = DELIVERY_LOG_SIZE,
): Promise<DeliveryLogEntry[]> {
  const newestFirst = [{ createdAt: 'desc' }, { id: 'desc' }] as const;
  const [attempts, summaries] = await Promise.all([
    db.deliveryLogEntry.findMany({
      where: { propertyId, channel, authenticated: true },
      orderBy: [...newestFirst],
      take,
    }),
    db.deliveryLogEntry.findMany({ where: { propertyId, channel, authenticated: false }, orderBy: [...newestFirst] }),
  ]);
  if (summaries.length === 0) return attempts;
  return [...attempts, ...summaries].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
  );
}
