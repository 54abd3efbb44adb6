import { createJobWorker, createQueue, emailJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection, createWorkerConnection } from '@vt/redis';
import { isolatedQueuePrefix, scratchDatabase, testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepDueEmails } from './email-sweep.ts';
import { enqueueEmail, wakeEmailSender } from './enqueue-email.ts';
import { anEmail, newTeam } from './mail-fixtures.ts';

// The sweep reads every due email of its database, so it gets one of its own; its queue is on a
// prefix no notifier of the run consumes, so the jobs it adds stay where the test reads them.

const scratch = await scratchDatabase('mail_sweep');
const db = scratch.db;
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const prefix = isolatedQueuePrefix();
const queue = createQueue(emailJob, redis, prefix);
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(redis);
  await scratch.drop();
});

const stateOf = async (id: string) => (await queue.getJob(id))?.getState();

describe('sweepDueEmails', () => {
  it('queues each due email without a live job under its id, and leaves the rest', async () => {
    const teamId = await newTeam(db);
    const neverWoken = await enqueueEmail(db, anEmail(teamId));
    const woken = await enqueueEmail(db, anEmail(teamId));
    await wakeEmailSender(queue, woken.id);
    const notDue = await enqueueEmail(db, anEmail(teamId));
    await db.outgoingEmail.update({ where: { id: notDue.id }, data: { nextAttemptAt: new Date(Date.now() + 60_000) } });
    const sent = await enqueueEmail(db, anEmail(teamId));
    await db.outgoingEmail.update({ where: { id: sent.id }, data: { status: 'sent', sentAt: new Date() } });
    const heldByALiveSender = await enqueueEmail(db, anEmail(teamId));
    await db.outgoingEmail.update({
      where: { id: heldByALiveSender.id },
      data: { status: 'sending', leaseUntil: new Date(Date.now() + 60_000) },
    });
    const leftByADeadSender = await enqueueEmail(db, anEmail(teamId));
    await db.outgoingEmail.update({
      where: { id: leftByADeadSender.id },
      data: { status: 'sending', leaseUntil: new Date(Date.now() - 1000) },
    });

    expect(await sweepDueEmails(db, queue)).toEqual({ queued: 2 });
    expect(await stateOf(neverWoken.id)).toBe('waiting');
    expect(await stateOf(leftByADeadSender.id)).toBe('waiting');
    expect((await queue.getJob(neverWoken.id))?.data).toEqual({ emailId: neverWoken.id });
    expect(await stateOf(woken.id)).toBe('waiting');
    for (const id of [notDue.id, sent.id, heldByALiveSender.id]) expect(await queue.getJob(id), id).toBeUndefined();
    // Swept again at once: every due email has its job, nothing is queued twice.
    expect(await sweepDueEmails(db, queue)).toEqual({ queued: 0 });
    expect(await queue.getJobCountByTypes('waiting')).toBe(3);
  });

  it('replaces the ended job of an email due again (a retry), which BullMQ would otherwise keep under its id', async () => {
    // The earlier test's emails count as delivered: the worker below ends their jobs too.
    await db.outgoingEmail.updateMany({ data: { status: 'sent' } });
    const teamId = await newTeam(db);
    const { id } = await enqueueEmail(db, anEmail(teamId));
    await wakeEmailSender(queue, id);
    // A worker takes the job and ends it, as the notifier does when an attempt is deferred.
    const connection = createWorkerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const worker = createJobWorker({
      contract: emailJob,
      connection,
      prefix,
      concurrency: 1,
      handle: async () => {},
      onUnknownJob: () => {},
    });
    const completed = new Promise<void>((resolve) =>
      worker.on('completed', (job) => {
        if (job.id === id) resolve();
      }),
    );
    void worker.run();
    await completed;
    await worker.close();
    await closeRedisConnection(connection);
    expect(await stateOf(id)).toBe('completed');

    expect(await sweepDueEmails(db, queue)).toEqual({ queued: 1 });
    expect(await stateOf(id)).toBe('waiting');
  });
});
