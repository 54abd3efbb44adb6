import { alertNotificationTypeSchema } from '@vt/contracts';
import { ALERT_WEBHOOK_LOG_MAX, attemptOutcomeSchema } from '@vt/contracts/console';
import { Prisma, type PrismaClient } from '@vt/db';
import {
  beyondCursor,
  cursorPage,
  inPageOrder,
  isoInstant,
  type Page,
  pageOrder,
  type SortColumn,
} from '@vt/read-model';

// What the console shows of one webhook's deliveries: its newest attempts, and what is still to
// be sent. Never a secret or a request; at most the receiver's first words. The text columns are
// held to their values by CHECK constraints, and parsed here rather than asserted.

/** Newest first; attempts made in one millisecond, the later attempt first; then id. */
const ATTEMPT_ORDER: SortColumn[] = [
  { column: 'attempted_at', descending: true, type: 'timestamptz' },
  { column: 'attempt', descending: true, type: 'int' },
  { column: 'id', type: 'uuid' },
];

/** A page of the webhook's attempts (paged by cursor), and its pending deliveries, oldest first. */
export async function alertWebhookLog(db: PrismaClient, destinationId: string, page: Page) {
  const read = await db.$queryRaw<{ id: string; attempted_at: Date; attempt: number }[]>(Prisma.sql`
    SELECT id, attempted_at, attempt FROM webhook_delivery_attempts
    WHERE destination_id = ${destinationId}::uuid AND ${beyondCursor(ATTEMPT_ORDER, page)}
    ${pageOrder(ATTEMPT_ORDER, page)}`);
  const { rows: keys, ...cursors } = cursorPage(read, page, (row) => [
    isoInstant(row.attempted_at),
    row.attempt,
    row.id,
  ]);
  const [attempts, pending] = await Promise.all([
    db.webhookDeliveryAttempt
      .findMany({
        where: { id: { in: keys.map((key) => key.id) } },
        include: { delivery: { select: { eventId: true, eventType: true } } },
      })
      .then((found) => inPageOrder(keys, found)),
    db.webhookDelivery.findMany({
      where: { destinationId, status: 'pending' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: ALERT_WEBHOOK_LOG_MAX,
    }),
  ]);
  return {
    webhookId: destinationId,
    attempts: attempts.map((a) => ({
      deliveryId: a.deliveryId,
      eventId: a.delivery.eventId,
      eventType: alertNotificationTypeSchema.parse(a.delivery.eventType),
      attempt: a.attempt,
      attemptedAt: a.attemptedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      errorClass: a.errorClass,
      outcome: attemptOutcomeSchema.parse(a.outcome),
      retryAt: a.retryAt?.toISOString() ?? null,
      responseSnippet: a.responseSnippet,
    })),
    ...cursors,
    pending: pending.map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      eventType: alertNotificationTypeSchema.parse(d.eventType),
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt.toISOString(),
    })),
  };
}
