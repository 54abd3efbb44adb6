import { countryCodeSchema, languageTagSchema } from '@vt/contracts';
import type { Property } from '@vt/db';
import {
  type ConnectionSettings,
  configurationNotes,
  crawlCredentials,
  createProperty as createTeamProperty,
  updateProperty,
  webhookCredentials,
} from '@vt/properties';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import {
  displayNameSchema,
  domainSchema,
  findProperty,
  parseOptions,
  planSchema,
  propertyFromOptions,
  slugSchema,
  termListSchema,
} from '../inputs.ts';
import { findTeamBySlug } from './teams.ts';

/** The deployment facts the setup dialogs are made of, from the ops config. */
export const connectionSettings = ({ config }: Pick<OpsContext, 'config'>): ConnectionSettings => ({
  publicIngestUrl: config.PUBLIC_INGEST_URL,
  crawlTokenSecret: config.CRAWL_TOKEN_SECRET,
  webhookSigningKey: config.WEBHOOK_SIGNING_KEY,
  webhookSecretRotation: config.WEBHOOK_SECRET_ROTATION,
});

/**
 * What the setup dialog shows for a property: the crawl ingest URL and token, the lead webhook
 * URL and signing secret. A secret whose deployment key is not configured is null, with a note.
 */
export function connectionDetails(ctx: Pick<OpsContext, 'config'>, property: Property) {
  const settings = connectionSettings(ctx);
  const crawl = crawlCredentials(settings, property);
  const notes = configurationNotes(settings);
  return {
    crawl: { ingestUrl: crawl.endpointUrl, token: crawl.token, ingestionEnabled: property.crawlIngestionEnabled },
    webhook: webhookCredentials(settings, property),
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
    country: property.country,
    language: property.language,
  };
}

/** `none` clears a country or language (the platforms' default); absent leaves it as it is. */
const orNone = <T extends z.ZodType<string, string>>(schema: T) =>
  z.union([z.literal('none').transform(() => null), schema]).optional();

const propertyCreateInput = z.object({
  team: slugSchema,
  name: displayNameSchema,
  domain: domainSchema,
  plan: planSchema,
  brandTerm: termListSchema.optional(),
  country: countryCodeSchema.optional(),
  language: languageTagSchema.optional(),
});

export async function createProperty(ctx: OpsContext, options: unknown) {
  const input = parseOptions(propertyCreateInput, options);
  const team = await findTeamBySlug(ctx, input.team);
  const property = await createTeamProperty(ctx.db, {
    teamId: team.id,
    name: input.name,
    domain: input.domain,
    plan: input.plan,
    brandTerms: input.brandTerm,
    country: input.country,
    language: input.language,
  });
  return { property: propertySummary(property), ...connectionDetails(ctx, property) };
}

const setPlanInput = z.object({ property: z.string(), plan: planSchema, lapsed: z.boolean().optional() });

/** Sets the plan; the subscription is lapsed with --lapsed and active without it. */
export async function setPropertyPlan(ctx: OpsContext, options: unknown) {
  const input = parseOptions(setPlanInput, options);
  const property = await findProperty(ctx, input.property);
  const updated = await updateProperty(ctx.db, property, { plan: input.plan, lapsed: Boolean(input.lapsed) });
  return { property: propertySummary(updated) };
}

const setLocationInput = z.object({
  property: z.string(),
  country: orNone(countryCodeSchema),
  language: orNone(languageTagSchema),
});

/** Where the property's buyers are: the country and language its prompts are asked in. */
export async function setPropertyLocation(ctx: OpsContext, options: unknown) {
  const input = parseOptions(setLocationInput, options);
  const property = await findProperty(ctx, input.property);
  const updated = await updateProperty(ctx.db, property, { country: input.country, language: input.language });
  return { property: propertySummary(updated) };
}

export async function showProperty(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  return { property: propertySummary(property), ...connectionDetails(ctx, property) };
}
