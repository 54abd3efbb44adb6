import { enqueueEmail, wakeEmailSender } from '@vt/mail';
import { emailJob } from '@vt/queue';
import { sampleSum, scrape, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { notifierReplicaWorld } from './testing/replica-world.ts';
import { waitUntil } from './testing/wait-until.ts';

// Two notifier processes (the compiled app, as production runs it) on one database and one queue:
// each email is sent exactly once between them, whether its job came from its producer, from a
// producer that woke the sender twice, from a job delivered twice, or from the sweep both run.

const N = 40;
const { db, catcher, queue, replicas, startReplicas } = await notifierReplicaWorld('notifier_replicas', emailJob, {
  // With credentials: the notifiers log in, and their logs show the server without the password.
  credentials: { user: 'mailer', pass: 'replica-pass-9f3a' },
});

describe('two notifier replicas', () => {
  it(`send each of ${N} emails exactly once`, async () => {
    await startReplicas(2, {
      MAIL_FROM: 'notify@vt.example',
      MAIL_SWEEP_INTERVAL_MS: '100',
      MAIL_RETRY_BASE_MS: '200',
      EMAIL_CONCURRENCY: '4',
    });

    const slug = uniqueSlug('replicas');
    const { id: teamId } = await db.team.create({ data: { name: slug, slug } });
    const ids: string[] = [];
    for (let n = 0; n < N; n++) {
      const { id } = await enqueueEmail(db, {
        teamId,
        kind: 'alert',
        to: `person-${n}@example.com`,
        subject: `Email ${n}`,
        text: `Email number ${n}.`,
        dedupeKey: `replicas:${n}`,
      });
      ids.push(id);
      // A quarter left to the sweep, a quarter woken twice, a quarter also delivered a second
      // time under another job id (as a replayed job would be), the rest woken once.
      if (n % 4 === 0) continue;
      await wakeEmailSender(queue, id);
      if (n % 4 === 1) await wakeEmailSender(queue, id);
      if (n % 4 === 2) await queue.add(emailJob.name, { emailId: id }, { jobId: `${id}-replayed` });
    }

    await waitUntil(
      'every email sent',
      async () => (await db.outgoingEmail.count({ where: { teamId, status: 'sent' } })) === N,
      30_000,
    );
    // Time for a second copy to arrive, were one on its way.
    await new Promise((r) => setTimeout(r, 1000));
    const copies = new Map<string, number>();
    for (const message of catcher.messages())
      copies.set(String(message.messageId), (copies.get(String(message.messageId)) ?? 0) + 1);
    expect(ids.map((id) => copies.get(`<${id}@vt.example>`) ?? 0)).toEqual(ids.map(() => 1));
    expect(catcher.messages()).toHaveLength(N);

    const sent = await Promise.all(
      replicas.map(async (r) => sampleSum(await scrape(`${r.url}/metrics`), 'vt_emails_sent_total')),
    );
    expect(sent[0]! + sent[1]!).toBe(N);
    // Both took part: the exactly-once above is between two senders, not one.
    expect(sent.every((count) => count > 0)).toBe(true);
    expect(catcher.messages().every((m) => m.authenticatedAs === 'mailer')).toBe(true);
    for (const replica of replicas) {
      expect(replica.stdout()).toContain(`"smtp":"smtp://***@127.0.0.1:${catcher.port}"`);
      expect(replica.stdout() + replica.stderr()).not.toContain('replica-pass-9f3a');
    }
  }, 90_000);
});
