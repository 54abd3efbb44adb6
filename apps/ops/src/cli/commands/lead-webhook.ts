import { leadActivity, webhookConnection, webhookLog as webhookLogOf } from '@vt/properties';
import type { OpsContext } from '../context.ts';
import { propertyAndDays, propertyFromOptions } from '../inputs.ts';

// The lead webhook panel and leads view of the dashboard, for the operator: the webhook status,
// the webhook delivery log, the recent-leads feed and the AI-attributed counts.

export async function webhookStatus(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return { propertyId: property.id, ...(await webhookConnection(ctx.db, property)) };
}

export async function webhookLog(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return webhookLogOf(ctx.db, property.id);
}

export async function recentLeads(ctx: OpsContext, options: unknown) {
  const { property, from, to } = await propertyAndDays(ctx, options);
  return leadActivity(ctx.db, property.id, from, to);
}
