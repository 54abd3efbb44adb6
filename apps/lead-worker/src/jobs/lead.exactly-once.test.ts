import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, leadJobData, newProperty, processedJob, run, snapshot } from './lead.fixtures.ts';
import { applyLead } from './lead.ts';

// Exactly-once effects: BullMQ delivers at least once (retries, stalled jobs, a gateway that enqueues
// twice), so the processed-jobs row and the (property, event id) key, committed with the lead, are
// what make a lead stored once and counted once.
describe('applyLead: exactly-once effects', () => {
  it('[LEAD-11] a replayed job (same lead id) stores one lead and counts it once, even when both copies run at once', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, { receivedAt: '2026-03-02T10:00:00Z' });
    const outcomes = await Promise.all([run(data), run(data)]);
    expect(outcomes).toEqual(expect.arrayContaining([{ applied: true }, { applied: false, reason: 'duplicate' }]));
    const once = await snapshot(propertyId);
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    expect(await snapshot(propertyId)).toEqual(once);
    expect(once.leads.map((l) => l.id)).toEqual([data.leadId]);
    expect(once.counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 1 }]);
  });

  it('[LEAD-8] two jobs with one x-webhook-id (different lead ids) store one lead and count it once', async () => {
    const propertyId = await newProperty();
    const first = leadJobData(propertyId, { eventId: 'evt_same', receivedAt: '2026-03-02T10:00:00Z' });
    const second = { ...first, leadId: randomUUID(), lead: { ...first.lead, contact: 'Someone else' } };
    expect(await run(first)).toEqual({ applied: true });
    expect(await run(second)).toEqual({ applied: false, reason: 'duplicate_event' });
    const { leads, counts } = await snapshot(propertyId);
    expect(leads.map((l) => [l.id, l.contact])).toEqual([[first.leadId, 'Ada Lovelace']]);
    expect(counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 1 }]);
  });

  it('[LEAD-8] concurrent jobs with one x-webhook-id store one lead between them, counted once', async () => {
    const propertyId = await newProperty();
    const jobs = Array.from({ length: 6 }, () =>
      leadJobData(propertyId, { eventId: 'evt_race', receivedAt: '2026-03-02T10:00:00Z' }),
    );
    const outcomes = await Promise.all(jobs.map(run));
    expect(outcomes.filter((o) => o.applied)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.applied && o.reason === 'duplicate_event')).toHaveLength(5);
    const { leads, counts } = await snapshot(propertyId);
    expect(leads).toHaveLength(1);
    expect(counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 1 }]);
  });

  it('a job failing half-way leaves nothing (no processed-jobs row either), so its retry applies it once', async () => {
    const propertyId = await newProperty();
    // A count already at the int4 maximum makes the daily-count upsert fail after the lead row is
    // inserted in the same transaction.
    await db.aiLeadDailyCount.create({
      data: { propertyId, day: new Date('2026-03-02T00:00:00Z'), platform: 'chatgpt', leads: 2_147_483_647 },
    });
    const data = leadJobData(propertyId, { receivedAt: '2026-03-02T10:00:00Z' });
    await expect(run(data)).rejects.toThrow(/out of range/);
    const failed = await snapshot(propertyId);
    expect(failed.leads).toEqual([]);
    expect(failed.counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 2_147_483_647 }]);
    expect(await processedJob(data)).toBeNull();

    await db.aiLeadDailyCount.updateMany({ where: { propertyId }, data: { leads: 10 } });
    expect(await run(data)).toEqual({ applied: true });
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    const retried = await snapshot(propertyId);
    expect(retried.leads.map((l) => l.id)).toEqual([data.leadId]);
    expect(retried.counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 11 }]);
  });

  it('a worker killed after writing but before commit: the retry stores the lead exactly once', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, { receivedAt: '2026-03-02T10:00:00Z' });
    const killed = new Error('worker killed before commit');
    // The job's statement runs for real inside a transaction, then the "process dies" before commit.
    await expect(
      db.$transaction(async (tx) => {
        await expect(applyLead(tx, data)).resolves.toEqual({ applied: true });
        throw killed;
      }),
    ).rejects.toBe(killed);
    expect(await snapshot(propertyId)).toEqual({ leads: [], counts: [] });
    expect(await processedJob(data)).toBeNull();

    expect(await run(data)).toEqual({ applied: true });
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    const { leads, counts } = await snapshot(propertyId);
    expect(leads.map((l) => l.id)).toEqual([data.leadId]);
    expect(counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 1 }]);
  });
});
