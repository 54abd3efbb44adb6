import { crawlActivity as crawlActivityOf, crawlConnection, crawlLog as crawlLogOf } from '@vt/properties';
import type { OpsContext } from '../context.ts';
import { propertyAndDays, propertyFromOptions } from '../inputs.ts';

// The crawl panel of the dashboard, for the operator: the connection status, the delivery log,
// and the activity (daily AI-crawler hits, verified or not, by crawler and by category, top pages,
// AI referrals).

export async function crawlStatus(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return { propertyId: property.id, ...(await crawlConnection(ctx.db, property)) };
}

export async function crawlLog(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return crawlLogOf(ctx.db, property.id);
}

export async function crawlActivity(ctx: OpsContext, options: unknown) {
  const { property, from, to } = await propertyAndDays(ctx, options);
  return crawlActivityOf(ctx.db, property, from, to);
}
