import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, leadJobData, newProperty, processedJob, run, snapshot } from './lead.fixtures.ts';

describe('applyLead: what an accepted lead stores', () => {
  it('stores one lead with every field, under the lead id the gateway answered', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, {
      eventId: 'evt_0001',
      receivedAt: '2026-03-02T10:15:30.123Z',
      lead: {
        contact: 'Ada Lovelace',
        email: 'ada@example.com',
        sessionId: 'sess-42',
        landingPath: '/pricing?plan=pro',
        referrer: 'https://www.perplexity.ai/search?q=acme',
        utmSource: 'newsletter',
        utmMedium: 'email',
      },
      platform: 'perplexity',
    });
    expect(await run(data)).toEqual({ applied: true });
    const { leads } = await snapshot(propertyId);
    expect(leads).toEqual([
      {
        id: data.leadId,
        propertyId,
        eventId: 'evt_0001',
        contact: 'Ada Lovelace',
        email: 'ada@example.com',
        sessionId: 'sess-42',
        landingPath: '/pricing?plan=pro',
        referrer: 'https://www.perplexity.ai/search?q=acme',
        utmSource: 'newsletter',
        utmMedium: 'email',
        matched: true,
        platform: 'perplexity',
        receivedAt: new Date('2026-03-02T10:15:30.123Z'),
        day: new Date('2026-03-02T00:00:00Z'),
      },
    ]);
    expect(await processedJob(data)).toMatchObject({ queue: 'lead' });
  });

  it('[LEAD-11] counts a classified lead toward the UTC day it arrived and its platform', async () => {
    const propertyId = await newProperty();
    await run(leadJobData(propertyId, { receivedAt: '2026-03-01T23:59:59.999Z' }));
    // 01:30 at +02:00 is 23:30 UTC on the 1st: the UTC day decides, not the sender's offset.
    await run(leadJobData(propertyId, { receivedAt: '2026-03-02T01:30:00+02:00' }));
    await run(leadJobData(propertyId, { receivedAt: '2026-03-02T00:00:00.000Z' }));
    await run(leadJobData(propertyId, { receivedAt: '2026-03-02T09:00:00Z', platform: 'claude' }));
    const { leads, counts } = await snapshot(propertyId);
    expect(counts).toEqual([
      { day: '2026-03-01', platform: 'chatgpt', leads: 2 },
      { day: '2026-03-02', platform: 'chatgpt', leads: 1 },
      { day: '2026-03-02', platform: 'claude', leads: 1 },
    ]);
    expect(leads.map((l) => [l.day.toISOString().slice(0, 10), l.matched, l.platform])).toEqual([
      ['2026-03-01', true, 'chatgpt'],
      ['2026-03-01', true, 'chatgpt'],
      ['2026-03-02', true, 'chatgpt'],
      ['2026-03-02', true, 'claude'],
    ]);
  });

  it('[LEAD-11] stores an unclassified lead for the recent-leads feed without counting it', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, {
      lead: { contact: 'someone@example.com', referrer: 'https://www.google.com/', utmMedium: 'chatgpt' },
      platform: null,
    });
    expect(await run(data)).toEqual({ applied: true });
    const { leads, counts } = await snapshot(propertyId);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ id: data.leadId, matched: false, platform: null, utmMedium: 'chatgpt' });
    expect(counts).toEqual([]);
  });

  it('[LEAD-8] identical bodies under different x-webhook-ids are two leads, counted twice', async () => {
    const propertyId = await newProperty();
    const receivedAt = '2026-03-02T10:00:00Z';
    await run(leadJobData(propertyId, { receivedAt }));
    await run(leadJobData(propertyId, { receivedAt }));
    const { leads, counts } = await snapshot(propertyId);
    expect(leads).toHaveLength(2);
    expect(counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 2 }]);
  });

  it('a lead for a property deleted since the gateway accepted it is a no-op, not a failing job', async () => {
    const data = leadJobData(randomUUID());
    expect(await run(data)).toEqual({ applied: false, reason: 'property_gone' });
    expect(await processedJob(data)).toBeNull();
    expect(await db.lead.count({ where: { id: data.leadId } })).toBe(0);
  });
});
