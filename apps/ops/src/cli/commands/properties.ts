import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import type { Property } from '@vt/db';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { domainSchema, findProperty, parseOptions, planSchema, propertyFromOptions, slugSchema } from '../inputs.ts';
import { findTeamBySlug } from './teams.ts';

const propertyCreateInput = z.object({
  team: slugSchema,
  name: z.string().trim().min(1).max(200),
  domain: domainSchema,
  plan: planSchema,
  brandTerm: z.array(z.string().trim().min(1).max(200)).optional(),
});

/**
 * What the setup dialog shows for a property: the crawl ingest URL and token, the lead webhook
 * URL and signing secret. A secret whose deployment key is not configured is null, with a note.
 */
export function connectionDetails({ config }: Pick<OpsContext, 'config'>, property: Property) {
  const notes: string[] = [];
  if (!config.CRAWL_TOKEN_SECRET)
    notes.push('CRAWL_TOKEN_SECRET is not set: crawl ingest answers 503 and has no token.');
  if (!config.WEBHOOK_SIGNING_KEY)
    notes.push('WEBHOOK_SIGNING_KEY is not set: the lead webhook answers 503 and has no secret.');
  return {
    crawl: {
      ingestUrl: `${config.PUBLIC_INGEST_URL}/api/ingest/crawl/${property.id}`,
      token: config.CRAWL_TOKEN_SECRET
        ? deriveCrawlToken(config.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion)
        : null,
      ingestionEnabled: property.crawlIngestionEnabled,
    },
    webhook: {
      url: `${config.PUBLIC_INGEST_URL}/api/webhooks/leads/${property.id}`,
      signingSecret: config.WEBHOOK_SIGNING_KEY ? deriveWebhookSecret(config.WEBHOOK_SIGNING_KEY, property.id) : null,
    },
    ...(notes.length ? { notes } : {}),
  };
}

export function propertySummary(property: Property) {
  return {
    id: property.id,
    teamId: property.teamId,
    name: property.name,
    domain: property.domain,
    brandTerms: property.brandTerms,
    plan: property.plan,
    subscriptionStatus: property.subscriptionStatus,
  };
}

export async function createProperty(ctx: OpsContext, options: unknown) {
  const input = parseOptions(propertyCreateInput, options);
  const team = await findTeamBySlug(ctx, input.team);
  const property = await ctx.db.property.create({
    data: {
      teamId: team.id,
      name: input.name,
      domain: input.domain,
      plan: input.plan,
      brandTerms: input.brandTerm?.length ? input.brandTerm : [input.name],
    },
  });
  return { property: propertySummary(property), ...connectionDetails(ctx, property) };
}

const setPlanInput = z.object({ property: z.string(), plan: planSchema, lapsed: z.boolean().optional() });

/** Sets the plan; the subscription is lapsed with --lapsed and active without it. */
export async function setPropertyPlan(ctx: OpsContext, options: unknown) {
  const input = parseOptions(setPlanInput, options);
  const property = await findProperty(ctx, input.property);
  const updated = await ctx.db.property.update({
    where: { id: property.id },
    data: { plan: input.plan, subscriptionStatus: input.lapsed ? 'lapsed' : 'active' },
  });
  return { property: propertySummary(updated) };
}

export async function showProperty(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return { property: propertySummary(property), ...connectionDetails(ctx, property) };
}
