import { deriveCrawlToken } from '@vt/credentials';
import type { OpsContext } from '../context.ts';
import { findProperty, parseOptions, propertyFromOptions, propertyOption } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';

/** Bumps the token version: the old token fails at once, on every gateway replica (nothing is cached). */
export async function rotateCrawlToken(ctx: OpsContext, options: unknown) {
  const { property: id } = parseOptions(propertyOption, options);
  const secret = ctx.config.CRAWL_TOKEN_SECRET;
  if (!secret) throw new OpsError('not_configured', 'CRAWL_TOKEN_SECRET is not set: crawl ingest has no tokens');
  const property = await findProperty(ctx, id);
  const updated = await ctx.db.property.update({
    where: { id: property.id },
    data: { crawlTokenVersion: { increment: 1 } },
  });
  return {
    propertyId: updated.id,
    tokenVersion: updated.crawlTokenVersion,
    token: deriveCrawlToken(secret, updated.id, updated.crawlTokenVersion),
    note: 'The previous token no longer works; senders get 401 until they use this one.',
  };
}

/** Switches crawl ingestion off: every attempt is refused with 403 and logged, nothing stored. */
export async function disconnectCrawl(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  await ctx.db.property.update({ where: { id: property.id }, data: { crawlIngestionEnabled: false } });
  return { propertyId: property.id, ingestionEnabled: false };
}

/** Switches ingestion back on; verification restarts (status Not verified until the next batch). */
export async function reconnectCrawl(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const updated = await ctx.db.property.update({
    where: { id: property.id },
    data: { crawlIngestionEnabled: true, crawlStatusSince: new Date() },
  });
  return { propertyId: updated.id, ingestionEnabled: true, statusSince: updated.crawlStatusSince?.toISOString() };
}
