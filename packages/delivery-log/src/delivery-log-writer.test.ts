import { randomUUID } from 'node:crypto';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { recentDeliveries } from './delivery-log.ts';
import { createDeliveryLogWriter } from './delivery-log-writer.ts';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

// The batched writer against the real Postgres. A lone row would wait a minute for its batch in
// these writers, so whatever is written before that was written by flush().

const db = testDb();
const LATER = { maxDelayMs: 60_000 };

async function createProperty() {
  const slug = uniqueSlug('dlw');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({ data: { teamId: team.id, name: slug, domain: 'example.com', brandTerms: [slug] } });
}

const attempt = (propertyId: string, n: number) => ({
  propertyId,
  channel: 'webhook' as const,
  statusCode: 401,
  outcome: 'rejected; no lead stored',
  reason: 'missing_signature',
  eventId: `attempt-${n}`,
});

const unexpected = (err: unknown) => {
  throw new Error(`unexpected write failure: ${String(err)}`);
};

describe('delivery-log writer', () => {
  it('submit resolves before the row is written; flush writes it', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, LATER);
    await writer.submit(attempt(property.id, 1), unexpected);
    expect(await recentDeliveries(db, property.id, 'webhook')).toEqual([]);
    await writer.flush();
    expect((await recentDeliveries(db, property.id, 'webhook')).map((r) => r.eventId)).toEqual(['attempt-1']);
    await writer.flush(); // nothing pending: resolves at once
  });

  it('a row Postgres refuses is reported to onError, never thrown; the rest of its batch is stored', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, LATER);
    const failures: unknown[] = [];
    const onError = (err: unknown) => failures.push(err);
    await writer.submit(attempt(property.id, 1), onError);
    await writer.submit(attempt(randomUUID(), 2), onError); // no such property: the foreign key refuses it
    await writer.submit(attempt(property.id, 3), onError);
    await writer.flush();
    expect(failures).toHaveLength(1);
    // Handed over in the same millisecond, the two rows have no order of their own: compare them as a set.
    const stored = (await recentDeliveries(db, property.id, 'webhook')).map((r) => r.eventId);
    expect(stored.sort()).toEqual(['attempt-1', 'attempt-3']);
  });

  it('once maxBacklog rows wait, submit waits until its own row is stored', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, { ...LATER, maxBacklog: 2 });
    await writer.submit(attempt(property.id, 1), unexpected);
    await writer.submit(attempt(property.id, 2), unexpected);
    let stored = false;
    const third = writer.submit(attempt(property.id, 3), unexpected).then(() => {
      stored = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stored).toBe(false);
    expect(await recentDeliveries(db, property.id, 'webhook')).toEqual([]);
    await writer.flush();
    await third;
    expect(stored).toBe(true);
    expect(await recentDeliveries(db, property.id, 'webhook')).toHaveLength(3);
  });

  it('stores a copy taken when handed over, with NUL and lone surrogates replaced, in values and keys', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, LATER);
    const result = {
      leadId: randomUUID(),
      ignoredFields: ['a\u0000b', '\ud800'],
      nested: { 'k\u0000': [1, 'x\udfff'] },
    };
    await writer.submit(
      { ...attempt(property.id, 1), statusCode: 200, requestBody: 'body\u0000\ud800', reason: undefined, result },
      unexpected,
    );
    result.ignoredFields.push('added after the hand-over');
    await writer.flush();
    const [row] = await recentDeliveries(db, property.id, 'webhook');
    expect(row).toMatchObject({
      statusCode: 200,
      reason: null,
      requestBody: 'body\uFFFD\uFFFD',
      result: { leadId: result.leadId, ignoredFields: ['a\uFFFDb', '\uFFFD'], nested: { 'k\uFFFD': [1, 'x\uFFFD'] } },
    });
  });

  it('[CRAWL-28] keeps only a log’s newest 50 waiting rows: an older one settles as soon as it is pushed out', async () => {
    const property = await createProperty();
    const other = await createProperty();
    const writer = createDeliveryLogWriter(db, LATER);
    let firstSettled = false;
    const first = writer.record(attempt(property.id, 0)).then(() => {
      firstSettled = true;
    });
    for (let n = 1; n < DELIVERY_LOG_SIZE; n++) await writer.submit(attempt(property.id, n), unexpected);
    await writer.submit(attempt(other.id, 1000), unexpected); // another log: pushes nothing out
    await new Promise((r) => setTimeout(r, 20));
    expect(firstSettled).toBe(false);
    await writer.submit(attempt(property.id, DELIVERY_LOG_SIZE), unexpected); // the 51st: attempt 0 goes
    await first;
    expect(await recentDeliveries(db, property.id, 'webhook')).toEqual([]); // settled, never written
    for (let n = DELIVERY_LOG_SIZE + 1; n < DELIVERY_LOG_SIZE + 30; n++)
      await writer.submit(attempt(property.id, n), unexpected);
    await writer.flush();
    const stored = await db.deliveryLogEntry.findMany({
      where: { propertyId: property.id },
      select: { eventId: true },
    });
    expect(stored.map((r) => r.eventId).sort()).toEqual(
      Array.from({ length: DELIVERY_LOG_SIZE }, (_, i) => `attempt-${i + 30}`).sort(),
    );
    expect((await recentDeliveries(db, other.id, 'webhook')).map((r) => r.eventId)).toEqual(['attempt-1000']);
  });

  it('a recorded row goes within maxDelayMs, taking the submitted rows that wait longer with it', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, { maxDelayMs: 5, submitDelayMs: 60_000 });
    await writer.submit(attempt(property.id, 1), unexpected);
    await new Promise((r) => setTimeout(r, 50));
    expect(await recentDeliveries(db, property.id, 'webhook')).toEqual([]); // submitted: still waiting
    await writer.record(attempt(property.id, 2)); // resolves once stored, without a flush
    const stored = (await recentDeliveries(db, property.id, 'webhook')).map((r) => r.eventId);
    expect(stored.sort()).toEqual(['attempt-1', 'attempt-2']);
  });

  it('a full batch goes at once, whatever its rows’ delay', async () => {
    const properties = await Promise.all([createProperty(), createProperty(), createProperty()]);
    const writer = createDeliveryLogWriter(db, { ...LATER, maxBatch: 3 });
    const stored = properties.map((p, n) => writer.record(attempt(p.id, n)));
    await Promise.all(stored); // no flush: the third row filled the batch
    for (const [n, p] of properties.entries())
      expect((await recentDeliveries(db, p.id, 'webhook')).map((r) => r.eventId)).toEqual([`attempt-${n}`]);
  });

  it('an onError that throws stops neither the other rows of its batch nor the writer', async () => {
    const property = await createProperty();
    const writer = createDeliveryLogWriter(db, LATER);
    const throwing = () => {
      throw new Error('a caller bug');
    };
    await writer.submit(attempt(randomUUID(), 1), throwing); // no such property: refused, onError throws
    await writer.submit(attempt(randomUUID(), 2), throwing);
    const stored = writer.record(attempt(property.id, 3));
    await writer.flush();
    await stored;
    expect((await recentDeliveries(db, property.id, 'webhook')).map((r) => r.eventId)).toEqual(['attempt-3']);
  });

  it('[CRAWL-28] one batch prunes every log it touched to its own newest 50, channel by channel', async () => {
    const [p, q] = await Promise.all([createProperty(), createProperty()]);
    const seed = createDeliveryLogWriter(db, LATER);
    for (let n = 0; n < DELIVERY_LOG_SIZE; n++) {
      await seed.submit(attempt(p.id, n), unexpected);
      await seed.submit({ ...attempt(p.id, n), channel: 'crawl' }, unexpected);
      await seed.submit(attempt(q.id, n), unexpected);
    }
    await seed.flush();
    const writer = createDeliveryLogWriter(db, LATER);
    await writer.submit(attempt(p.id, 100), unexpected);
    await writer.submit(attempt(q.id, 100), unexpected);
    await writer.flush(); // one batch, two logs over 50; p's crawl log not in it
    const ids = async (propertyId: string, channel: 'webhook' | 'crawl') =>
      (await db.deliveryLogEntry.findMany({ where: { propertyId, channel }, select: { eventId: true } })).map(
        (r) => r.eventId,
      );
    for (const id of [p.id, q.id]) {
      const kept = await ids(id, 'webhook');
      expect(kept).toHaveLength(DELIVERY_LOG_SIZE);
      expect(kept).toContain('attempt-100');
    }
    expect(await ids(p.id, 'crawl')).toHaveLength(DELIVERY_LOG_SIZE);
  });
});
