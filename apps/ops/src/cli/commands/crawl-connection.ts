import { rotateCrawlToken as rotate, disconnectCrawl as switchOff, reconnectCrawl as switchOn } from '@vt/properties';
import type { OpsContext } from '../context.ts';
import { propertyFromOptions } from '../inputs.ts';
import { connectionDetails, connectionSettings } from './properties.ts';

/** Bumps the token version: the old token fails at once, on every gateway replica (nothing is cached). */
export async function rotateCrawlToken(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const updated = await rotate(ctx.db, connectionSettings(ctx), property);
  return {
    propertyId: updated.id,
    tokenVersion: updated.crawlTokenVersion,
    token: connectionDetails(ctx, updated).crawl.token,
    note: 'The previous token no longer works; senders get 401 until they use this one.',
  };
}

/** Switches crawl ingestion off: every attempt is refused with 403 and logged, nothing stored. */
export async function disconnectCrawl(ctx: OpsContext, options: unknown) {
  const property = await switchOff(ctx.db, await propertyFromOptions(ctx, options));
  return { propertyId: property.id, ingestionEnabled: property.crawlIngestionEnabled };
}

/** Switches ingestion back on; verification restarts (status Not verified until the next batch). */
export async function reconnectCrawl(ctx: OpsContext, options: unknown) {
  const property = await switchOn(ctx.db, await propertyFromOptions(ctx, options));
  return { propertyId: property.id, ingestionEnabled: true, statusSince: property.crawlStatusSince?.toISOString() };
}
