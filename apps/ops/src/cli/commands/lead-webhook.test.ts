import { randomUUID } from 'node:crypto';
import { opsConfigSchema, parseConfig } from '@vt/config';
import { addUtcDays, utcDay } from '@vt/db';
import { testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import type { OpsContext } from '../context.ts';
import { recentLeads, webhookLog, webhookStatus } from './lead-webhook.ts';

// The commands are called directly with a context; the results are plain JSON, so what these
// assert is what `--json` prints.
const db = testDb();
const ctx: OpsContext = { db, config: parseConfig('ops', opsConfigSchema, testEnv) };

async function newProperty() {
  const slug = uniqueSlug('lead-ops');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({ data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth' } });
}

/**
 * A webhook attempt as the gateway logs it, at a given time (so the order never depends on a tie);
 * an accepted one with its lead stored, as the lead worker leaves it (`stored: false`: not yet).
 */
async function attempt(propertyId: string, statusCode: number, at: Date, n = 0, stored = true) {
  const accepted = statusCode === 200;
  const signed = statusCode !== 401;
  const leadId = accepted ? randomUUID() : null;
  if (leadId && stored) {
    const eventId = `evt_${n}_${leadId}`;
    await db.lead.create({
      data: { id: leadId, propertyId, eventId, contact: `lead ${n}`, matched: false, receivedAt: at, day: utcDay(at) },
    });
  }
  return db.deliveryLogEntry.create({
    data: {
      propertyId,
      channel: 'webhook',
      createdAt: at,
      statusCode,
      outcome: accepted ? 'stored lead' : 'rejected; nothing stored',
      reason: accepted ? null : statusCode === 401 ? 'invalid_signature' : 'invalid_payload',
      fix: accepted ? null : 'Sign {id}.{timestamp}.{body} with the signing secret.',
      eventId: `evt_${n}`,
      requestBody: signed ? JSON.stringify({ contact: `lead ${n}` }) : null,
      leadId,
    },
  });
}

const seconds = (n: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, n));

describe('ops webhook status', () => {
  it('[LEAD-16] walks Not verified → Rejecting events → Verified → Rejecting events', async () => {
    const property = await newProperty();
    const status = () => webhookStatus(ctx, { property: property.id });
    expect(await status()).toEqual({
      propertyId: property.id,
      status: 'not_verified',
      latestRefusal: null,
      lastAttemptAt: null,
      lastAcceptedAt: null,
    });
    await attempt(property.id, 401, seconds(1));
    await attempt(property.id, 400, seconds(2));
    expect(await status()).toMatchObject({
      status: 'rejecting',
      lastAttemptAt: seconds(2).toISOString(),
      lastAcceptedAt: null,
    });
    await attempt(property.id, 200, seconds(3));
    expect(await status()).toMatchObject({
      status: 'verified',
      lastAttemptAt: seconds(3).toISOString(),
      lastAcceptedAt: seconds(3).toISOString(),
    });
    await attempt(property.id, 401, seconds(4));
    expect(await status()).toMatchObject({
      status: 'rejecting',
      lastAttemptAt: seconds(4).toISOString(),
      lastAcceptedAt: seconds(3).toISOString(),
    });
  });

  it('[LEAD-16] an accepted lead is Verified only once the lead worker has stored it', async () => {
    const property = await newProperty();
    await attempt(property.id, 200, seconds(1), 1, false);
    expect(await webhookStatus(ctx, { property: property.id })).toMatchObject({
      status: 'not_verified',
      lastAcceptedAt: null,
    });
    await attempt(property.id, 401, seconds(2));
    await attempt(property.id, 200, seconds(3), 3, false);
    expect((await webhookStatus(ctx, { property: property.id })).status).toBe('rejecting');
  });

  it('[LEAD-16] a lead that could not be stored (500) is not Verified', async () => {
    const property = await newProperty();
    await attempt(property.id, 200, seconds(1));
    await attempt(property.id, 500, seconds(2));
    expect((await webhookStatus(ctx, { property: property.id })).status).toBe('rejecting');
  });

  it('only reads webhook attempts: crawl ingest attempts do not verify the webhook', async () => {
    const property = await newProperty();
    await db.deliveryLogEntry.create({
      data: { propertyId: property.id, channel: 'crawl', statusCode: 202, outcome: 'accepted' },
    });
    expect((await webhookStatus(ctx, { property: property.id })).status).toBe('not_verified');
  });

  it('refuses an unknown property', async () => {
    await expect(webhookStatus(ctx, { property: randomUUID() })).rejects.toMatchObject({
      code: 'property_not_found',
    });
    await expect(webhookLog(ctx, { property: 'not-a-uuid' })).rejects.toMatchObject({ code: 'property_not_found' });
  });
});

describe('ops webhook log', () => {
  it('[LEAD-15] shows the 20 newest of the 50 kept, newest first: code, outcome, reason, fix, body only when signed', async () => {
    const property = await newProperty();
    const codes = [200, 401, 400];
    for (let n = 0; n < 50; n++) await attempt(property.id, codes[n % 3]!, seconds(n), n);
    const { propertyId, entries } = await webhookLog(ctx, { property: property.id });
    expect(propertyId).toBe(property.id);
    expect(entries).toHaveLength(20);
    expect(entries.map((e) => e.eventId)).toEqual(Array.from({ length: 20 }, (_, i) => `evt_${49 - i}`));
    // 49 % 3 = 1: a 401, then a 200 (48) and a 400 (47).
    expect(entries[0]).toEqual({
      at: seconds(49).toISOString(),
      statusCode: 401,
      outcome: 'rejected; nothing stored',
      reason: 'invalid_signature',
      fix: 'Sign {id}.{timestamp}.{body} with the signing secret.',
      eventId: 'evt_49',
      requestBody: null,
      authenticated: true,
      attempts: 1,
      firstAttemptAt: null,
    });
    expect(entries[1]).toMatchObject({
      statusCode: 200,
      outcome: 'stored lead',
      reason: null,
      fix: null,
      requestBody: '{"contact":"lead 48"}',
    });
    expect(entries[2]).toMatchObject({
      statusCode: 400,
      reason: 'invalid_payload',
      requestBody: '{"contact":"lead 47"}',
    });
  });
});

describe('ops leads', () => {
  async function seedLeads(propertyId: string, count: number, now: Date) {
    await db.lead.createMany({
      data: Array.from({ length: count }, (_, n) => {
        const receivedAt = new Date(now.getTime() - (count - n) * 60_000);
        const platform = n % 2 ? 'chatgpt' : null;
        return {
          id: randomUUID(),
          propertyId,
          eventId: `evt_${n}`,
          contact: `Lead ${n}`,
          email: n === count - 1 ? 'newest@example.com' : null,
          sessionId: 'sess-1',
          landingPath: '/pricing',
          referrer: platform ? 'https://chatgpt.com/' : null,
          utmSource: 'newsletter',
          utmMedium: 'email',
          matched: platform !== null,
          platform,
          receivedAt,
          day: utcDay(receivedAt),
        };
      }),
    });
  }

  it('[LEAD-11] the feed shows the 50 newest leads, classified or not, newest first', async () => {
    const property = await newProperty();
    const now = new Date();
    await seedLeads(property.id, 52, now);
    const { leads } = await recentLeads(ctx, { property: property.id });
    expect(leads).toHaveLength(50);
    expect(leads.map((l) => l.contact)).toEqual(Array.from({ length: 50 }, (_, i) => `Lead ${51 - i}`));
    expect(leads[0]).toEqual({
      id: expect.any(String),
      receivedAt: new Date(now.getTime() - 60_000).toISOString(),
      contact: 'Lead 51',
      email: 'newest@example.com',
      platform: 'chatgpt',
      matched: true,
      landingPath: '/pricing',
      referrer: 'https://chatgpt.com/',
      utmSource: 'newsletter',
    });
    expect(leads[1]).toMatchObject({ contact: 'Lead 50', platform: 'unclassified', matched: false, referrer: null });
  });

  it('[LEAD-11] AI-attributed leads per UTC day and platform over the last N days (default 30)', async () => {
    const property = await newProperty();
    const today = utcDay(new Date());
    const day = (offset: number) => addUtcDays(today, offset);
    await db.aiLeadDailyCount.createMany({
      data: [
        { propertyId: property.id, day: day(0), platform: 'chatgpt', leads: 3 },
        { propertyId: property.id, day: day(0), platform: 'claude', leads: 1 },
        { propertyId: property.id, day: day(-6), platform: 'perplexity', leads: 2 },
        { propertyId: property.id, day: day(-29), platform: 'chatgpt', leads: 4 },
        { propertyId: property.id, day: day(-30), platform: 'chatgpt', leads: 100 },
      ],
    });
    const date = (offset: number) => day(offset).toISOString().slice(0, 10);
    const byDefault = await recentLeads(ctx, { property: property.id });
    expect(byDefault).toMatchObject({ from: date(-29), to: date(0), leads: [] });
    expect(byDefault.aiAttributed).toEqual([
      { date: date(-29), platform: 'chatgpt', leads: 4 },
      { date: date(-6), platform: 'perplexity', leads: 2 },
      { date: date(0), platform: 'chatgpt', leads: 3 },
      { date: date(0), platform: 'claude', leads: 1 },
    ]);
    // As the CLI passes it: a string.
    const lastWeek = await recentLeads(ctx, { property: property.id, days: '7' });
    expect(lastWeek.aiAttributed.map((r) => [r.date, r.platform])).toEqual([
      [date(-6), 'perplexity'],
      [date(0), 'chatgpt'],
      [date(0), 'claude'],
    ]);
  });

  it('refuses a bad --days', async () => {
    const property = await newProperty();
    await expect(recentLeads(ctx, { property: property.id, days: '0' })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('--days'),
    });
  });
});
