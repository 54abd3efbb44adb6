import type { PrismaClient } from '@vt/db';
import type { Queue } from '@vt/queue';
import { dueEmailIds } from './email-outbox.ts';
import { wakeEmailSender } from './enqueue-email.ts';

/** Most emails one sweep queues; a larger backlog is taken over the next sweeps. */
const SWEEP_BATCH = 500;

/**
 * Queues every due email that has no live job: one whose producer's wake-up was lost (Redis away
 * after the commit), one whose retry wait is over, one left 'sending' by a notifier that died.
 * An email whose job still waits or runs is left to it; one whose job ended (BullMQ keeps ended
 * jobs under their id for a while, and would ignore the add) gets its old job removed first.
 * Queuing an email twice is harmless: its claim lets one attempt through.
 */
export async function sweepDueEmails(db: PrismaClient, queue: Queue): Promise<{ queued: number }> {
  let queued = 0;
  for (const id of await dueEmailIds(db, SWEEP_BATCH)) {
    const job = await queue.getJob(id);
    if (job) {
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
      // A job another sweep just put back is waiting again: removing it then adding is the same.
      await job.remove().catch(() => undefined);
    }
    await wakeEmailSender(queue, id);
    queued++;
  }
  return { queued };
}
