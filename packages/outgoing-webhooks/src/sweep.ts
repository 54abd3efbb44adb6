import type { PrismaClient } from '@vt/db';
import type { Queue } from '@vt/queue';
import { enqueueWebhookDeliveries } from './notifications.ts';

// Nothing recorded is lost: a delivery whose job never reached Redis (Redis away when it was
// recorded, a process killed between the commit and the enqueue), or whose job ended while the
// delivery stayed pending (a worker that lost Postgres on its last try), is queued again once it
// is due. And the log does not grow for ever: finished deliveries go after DELIVERY_RETENTION_DAYS.

/** How long past its due time a delivery waits for its job before the sweep queues it again. */
const GRACE_MS = 60_000;
const SWEEP_BATCH = 200;
export const DELIVERY_RETENTION_DAYS = 30;

/** Job states in which a job will still run: the sweep leaves those deliveries alone. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

export interface SweepResult {
  requeued: number;
  pruned: number;
}

/**
 * Queues every due pending delivery without a live job (a finished job of a pending delivery is
 * removed first: its id would make the new one a no-op), then prunes old finished deliveries.
 * Safe on every replica at once: queueing under the delivery's id is idempotent, and the claim in
 * `deliverWebhook` keeps two jobs from posting at once.
 */
export async function sweepWebhookDeliveries(
  db: PrismaClient,
  queue: Queue,
  now: Date = new Date(),
): Promise<SweepResult> {
  const due = await db.webhookDelivery.findMany({
    where: {
      status: 'pending',
      nextAttemptAt: { lt: new Date(now.getTime() - GRACE_MS) },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
    },
    select: { id: true },
    orderBy: { nextAttemptAt: 'asc' },
    take: SWEEP_BATCH,
  });
  const missing: string[] = [];
  for (const { id } of due) {
    const state = await queue.getJobState(id);
    if (LIVE_STATES.has(state)) continue;
    if (state === 'completed' || state === 'failed') await queue.remove(id);
    missing.push(id);
  }
  await enqueueWebhookDeliveries(queue, missing);
  const { count: pruned } = await db.webhookDelivery.deleteMany({
    where: {
      status: { not: 'pending' },
      completedAt: { lt: new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000) },
    },
  });
  return { requeued: missing.length, pruned };
}

/** How often a worker app runs the sweep. */
export const SWEEP_EVERY_MS = 60_000;

/** The sweep as a periodic task of a worker app (the shape of @vt/db's processedJobsPruneTask). */
export function webhookDeliverySweepTask(db: PrismaClient, queue: Queue) {
  return {
    name: 'sweep alert webhook deliveries',
    everyMs: SWEEP_EVERY_MS,
    run: () => sweepWebhookDeliveries(db, queue),
  };
}
