// Shared by the lead worker's test files: each test seeds its own team and property, so files run
// in parallel on one database and every assertion is scoped to the test's property ids.
import { randomUUID } from 'node:crypto';
import { formatUtcDay } from '@vt/db';
import { type LeadJobData, leadJob } from '@vt/queue';
import { testDb, uniqueSlug } from '@vt/test-support';
import { applyLead, leadJobKey } from './lead.ts';

export const db = testDb();

export async function newProperty(): Promise<string> {
  const team = await db.team.create({ data: { name: 'Lead worker', slug: uniqueSlug('lead-worker') } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.example', brandTerms: [], plan: 'starter' },
  });
  return property.id;
}

/**
 * A lead job as the gateway builds it. Each call mints a new lead id and (unless given) a new event
 * id; the gateway derives the lead id from (property, event id), which tests pass explicitly.
 */
export function leadJobData(propertyId: string, overrides: Partial<Omit<LeadJobData, 'propertyId'>> = {}): LeadJobData {
  return leadJob.schema.parse({
    leadId: randomUUID(),
    propertyId,
    eventId: `evt_${randomUUID()}`,
    receivedAt: new Date().toISOString(),
    lead: { contact: 'Ada Lovelace', referrer: 'https://chatgpt.com/' },
    platform: 'chatgpt',
    ...overrides,
  });
}

export const run = (data: LeadJobData) => applyLead(db, data);

/** Everything the worker writes for a property, in a stable order. */
export async function snapshot(propertyId: string) {
  const where = { propertyId };
  const [leads, counts] = await Promise.all([
    db.lead.findMany({ where, orderBy: [{ receivedAt: 'asc' }, { eventId: 'asc' }] }),
    db.aiLeadDailyCount.findMany({ where, orderBy: [{ day: 'asc' }, { platform: 'asc' }] }),
  ]);
  return {
    leads,
    counts: counts.map((r) => ({ day: formatUtcDay(r.day), platform: r.platform, leads: r.leads })),
  };
}

export const processedJob = (data: LeadJobData) =>
  db.processedJob.findUnique({ where: { jobKey: leadJobKey(data.leadId) } });
