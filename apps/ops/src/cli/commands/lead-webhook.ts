import { UNCLASSIFIED_PLATFORM } from '@vt/attribution';
import { formatUtcDay } from '@vt/db';
import { isAcceptedLeadAttempt, leadWebhookStatus, recentDeliveries, WEBHOOK_LOG_SHOWN } from '@vt/delivery-log';
import type { OpsContext } from '../context.ts';
import { propertyAndDays, propertyFromOptions } from '../inputs.ts';

// What the dashboard's lead webhook panel and leads view will show, until the dashboard exists:
// the webhook status, the webhook delivery log, the recent-leads feed and the AI-attributed counts.

/** The recent-leads feed shows this many leads, newest first. */
const RECENT_LEADS_SHOWN = 50;

export async function webhookStatus(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const attempts = await recentDeliveries(ctx.db, property.id, 'webhook');
  const accepted = attempts.find(isAcceptedLeadAttempt);
  return {
    propertyId: property.id,
    status: leadWebhookStatus(attempts),
    lastAttemptAt: attempts[0]?.createdAt.toISOString() ?? null,
    lastAcceptedAt: accepted?.createdAt.toISOString() ?? null,
  };
}

export async function webhookLog(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const attempts = await recentDeliveries(ctx.db, property.id, 'webhook', WEBHOOK_LOG_SHOWN);
  return {
    propertyId: property.id,
    entries: attempts.map((a) => ({
      at: a.createdAt.toISOString(),
      statusCode: a.statusCode,
      outcome: a.outcome,
      reason: a.reason,
      fix: a.fix,
      eventId: a.eventId,
      // Null on attempts that did not pass the signature check: the gateway keeps no body for them.
      requestBody: a.requestBody,
    })),
  };
}

export async function recentLeads(ctx: OpsContext, options: unknown) {
  const { property, from, to } = await propertyAndDays(ctx, options);
  const [leads, daily] = await Promise.all([
    ctx.db.lead.findMany({
      where: { propertyId: property.id },
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: RECENT_LEADS_SHOWN,
    }),
    ctx.db.aiLeadDailyCount.findMany({
      where: { propertyId: property.id, day: { gte: from, lte: to } },
      orderBy: [{ day: 'asc' }, { platform: 'asc' }],
    }),
  ]);
  return {
    propertyId: property.id,
    from: formatUtcDay(from),
    to: formatUtcDay(to),
    leads: leads.map((l) => ({
      id: l.id,
      receivedAt: l.receivedAt.toISOString(),
      contact: l.contact,
      email: l.email,
      platform: l.platform ?? UNCLASSIFIED_PLATFORM,
      matched: l.matched,
      landingPath: l.landingPath,
      referrer: l.referrer,
      utmSource: l.utmSource,
    })),
    aiAttributed: daily.map((r) => ({ date: formatUtcDay(r.day), platform: r.platform, leads: r.leads })),
  };
}
