import { AGENT_CATEGORIES } from '@vt/attribution';
import { z } from 'zod';
import { CRAWL_PROVIDER_IDS } from '../crawl-providers.ts';
import { cursorPageFields } from '../list-cursor.ts';
import { competitorShareSchema, responseSchema, taskSchema, visibilityPointSchema } from '../resources.ts';
import { accessSchema, planSchema, roleSchema, teamBrandingSchema, teamSettingsSchema } from './fields.ts';

// What the console API answers. Timestamps are ISO 8601 strings, days are UTC `YYYY-MM-DD`.

const timestamp = z.iso.datetime({ offset: true });
const agentCategorySchema = z.enum(AGENT_CATEGORIES).openapi('AgentCategory', {
  description:
    'ai-training, ai-search, ai-assistant (a fetch a person triggered), ai-coding-agent, ai-browser-agent, or dual-use (a search crawler whose fetches also feed AI answers, or an agent the public lists disagree on: ai.robots.txt lists it as AI, crawler-user-agents tags it otherwise).',
});
const day = z.iso.date();

const userSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string() }).openapi('User');

export const authAnswerSchema = z
  .object({
    user: userSchema,
    token: z.string().openapi({
      description:
        'The session token: also set as the httpOnly `vt_session` cookie; scripts send it as `Authorization: Bearer <token>`.',
    }),
    expiresAt: timestamp,
  })
  .openapi('SignedIn');

const teamSummarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    role: roleSchema,
    settings: teamSettingsSchema,
    branding: teamBrandingSchema.openapi({ description: 'The header shows the logo and display name.' }),
  })
  .openapi('TeamMembership');

export const meSchema = z
  .object({
    user: userSchema,
    teams: z.array(teamSummarySchema),
    currentTeamId: z.uuid().nullable().openapi({
      description:
        'The team requests act on without X-Team-Id: the one last selected, else the only one; null when neither.',
    }),
    sessionExpiresAt: timestamp,
  })
  .openapi('Me');

const memberSchema = z
  .object({ userId: z.uuid(), email: z.string(), name: z.string(), role: roleSchema, joinedAt: timestamp })
  .openapi('Member');

const teamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    settings: teamSettingsSchema,
    branding: teamBrandingSchema,
    createdAt: timestamp,
  })
  .openapi('Team');

export const teamDetailSchema = z
  .object({
    team: teamSchema,
    role: roleSchema.openapi({ description: 'The caller’s role.' }),
    members: z.array(memberSchema),
  })
  .openapi('TeamDetail');

export const slugCheckSchema = z
  .object({
    slug: z.string(),
    available: z.boolean(),
    reason: z
      .enum(['too_short', 'too_long', 'invalid_characters', 'hyphen_at_edge', 'reserved', 'taken'])
      .optional()
      .openapi({ description: 'Why it is not available; absent when it is.' }),
    message: z.string().optional().openapi({ description: 'The reason in words, for a form.' }),
  })
  .openapi('SlugCheck');

export const membersSchema = z.object({ members: z.array(memberSchema), ...cursorPageFields }).openapi('Members');
export const memberAnswerSchema = z.object({ member: memberSchema }).openapi('MemberAnswer');

const competitorSchema = z
  .object({ id: z.uuid(), name: z.string(), domain: z.string().nullable(), terms: z.array(z.string()) })
  .openapi('Competitor');

const promptSchema = z
  .object({
    id: z.uuid(),
    text: z.string(),
    tags: z.array(z.string()),
    active: z.boolean(),
    country: z.string().nullable().openapi({ description: 'The prompt’s own country; null: the property’s.' }),
    language: z.string().nullable().openapi({ description: 'The prompt’s own language; null: the property’s.' }),
    createdAt: timestamp,
  })
  .openapi('ConsolePrompt');

const propertySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    plan: planSchema,
    subscriptionStatus: z.enum(['active', 'lapsed']),
    brandTerms: z.array(z.string()),
    countDualUseAsAi: z
      .boolean()
      .openapi({ description: 'Whether dual-use crawlers count in the AI totals (kept and listed either way).' }),
    country: z.string().nullable().openapi({
      description: 'ISO 3166-1 alpha-2 country the prompts are asked in; null: each platform’s own default.',
    }),
    language: z
      .string()
      .nullable()
      .openapi({ description: 'BCP 47 language the prompts are asked in; null: each platform’s own default.' }),
    createdAt: timestamp,
  })
  .openapi('ConsoleProperty');

const propertyDetailSchema = propertySchema
  .extend({ competitors: z.array(competitorSchema), prompts: z.array(promptSchema) })
  .openapi('PropertyDetail');

export const propertiesSchema = z
  .object({ properties: z.array(propertySchema), ...cursorPageFields })
  .openapi('Properties');
export const propertyAnswerSchema = z.object({ property: propertyDetailSchema }).openapi('PropertyAnswer');
export const competitorAnswerSchema = z.object({ competitor: competitorSchema }).openapi('CompetitorAnswer');
export const promptAnswerSchema = z.object({ prompt: promptSchema }).openapi('PromptAnswer');

const secretNote = 'Null for members (owners and admins only) and when the deployment secret is not set.';

const crawlConnectionStatusSchema = z
  .enum(['not_verified', 'connected', 'rejecting', 'nothing_arriving', 'disconnected'])
  .openapi({ description: 'Derived from the delivery log (spec: Crawl connection status).' });

const latestRefusalSchema = z
  .object({ at: timestamp, statusCode: z.number().int(), reason: z.string().nullable(), fix: z.string().nullable() })
  .nullable()
  .openapi('LatestRefusal', {
    description:
      'The newest attempt, when it was refused while the status still holds (an attempt was accepted within the last 24 hours): what to fix. Null otherwise.',
  });

const crawlProviderSetupSchema = z
  .object({
    id: z.enum(CRAWL_PROVIDER_IDS),
    name: z.string().openapi({ description: 'The vendor, as a tab names it (Cloudflare, Vercel, …).' }),
    title: z
      .string()
      .openapi({ description: 'The product as its own documentation names it (Cloudflare Logpush, …).' }),
    endpointUrl: z.string().openapi({ description: 'The crawl endpoint URL + `/{provider}`.' }),
    steps: z
      .array(z.string())
      .openapi({ description: "What to do, in order, in the provider's own words and menu names." }),
    fields: z
      .array(
        z.object({
          id: z.string(),
          label: z.string().openapi({ description: "Where it goes, as the provider's form names it." }),
          value: z
            .string()
            .openapi({ description: 'What to paste; for members the token and secrets are placeholders.' }),
        }),
      )
      .openapi({ description: 'The values to paste, in the order the steps ask for them.' }),
    notes: z.array(z.string()),
  })
  .openapi('CrawlProviderSetup');

export const crawlSetupSchema = z
  .object({
    propertyId: z.uuid(),
    endpointUrl: z.string(),
    token: z
      .string()
      .nullable()
      .openapi({ description: `The ingest bearer token. ${secretNote}` }),
    tokenVersion: z.number().int(),
    ingestionEnabled: z.boolean(),
    status: crawlConnectionStatusSchema,
    latestRefusal: latestRefusalSchema,
    lastAttemptAt: timestamp.nullable(),
    lastAcceptedAt: timestamp.nullable(),
    verificationRestartedAt: timestamp.nullable(),
    snippets: z
      .array(z.object({ id: z.string(), label: z.string(), language: z.string(), code: z.string() }))
      .openapi({ description: 'Ready-to-paste senders; for members the token is a placeholder.' }),
    providers: z.array(crawlProviderSetupSchema).openapi({
      description:
        'One per CDN or hosting platform whose own log delivery posts to `{endpointUrl}/{provider}`, in a fixed order; for members the token and the Vercel drain secret are placeholders.',
    }),
    notes: z.array(z.string()),
  })
  .openapi('CrawlSetup');

/** What every delivery-log row shows: when, the answer given, what the endpoint did, and why not. */
const deliveryAttemptFields = {
  at: timestamp,
  statusCode: z.number().int(),
  outcome: z.string(),
  reason: z.string().nullable(),
  fix: z.string().nullable(),
  authenticated: z.boolean().openapi({
    description:
      "False for a summary of attempts that never proved to be the property's sender (a wrong crawl token; a webhook refused before its signature verified): one row per reason, counting them, never taking a sender's row's place and never deciding the status.",
  }),
  attempts: z.number().int().openapi({
    description: 'How many attempts the row stands for: 1, or a summary’s count since firstAttemptAt.',
  }),
  firstAttemptAt: timestamp.nullable().openapi({
    description: 'A summary’s first attempt of its current run (at is its newest); null on other rows.',
  }),
};

export const crawlLogSchema = z
  .object({
    propertyId: z.uuid(),
    entries: z.array(
      z.object({
        ...deliveryAttemptFields,
        linesReceived: z.number().int().nullable(),
        linesMatched: z.number().int().nullable(),
        hostNote: z.object({ count: z.number().int(), hosts: z.array(z.string()) }).nullable(),
      }),
    ),
  })
  .openapi('CrawlDeliveryLog');

/**
 * How lead webhook secrets rotate in a deployment (WEBHOOK_SECRET_ROTATION): `deployment` only (the
 * spec's LEAD-17, the default), or also one `property` at a time (issue 31).
 */
export const WEBHOOK_SECRET_ROTATIONS = ['deployment', 'property'] as const;
export type WebhookSecretRotation = (typeof WEBHOOK_SECRET_ROTATIONS)[number];

export const webhookSetupSchema = z
  .object({
    propertyId: z.uuid(),
    url: z.string(),
    signingSecret: z
      .string()
      .nullable()
      .openapi({ description: `The HMAC signing secret. ${secretNote}` }),
    secretRotatedAt: timestamp.nullable().openapi({
      description:
        'When the property’s secret was last rotated; null: never (the secret derived from the property id).',
    }),
    previousSecret: z.object({ verifiesUntil: timestamp }).nullable().openapi({
      description:
        'While the secret before the last rotation still verifies (the overlap), until when; null when it no longer does.',
    }),
    secretRotation: z.enum(WEBHOOK_SECRET_ROTATIONS).openapi({
      description:
        "How this deployment rotates lead webhook secrets (WEBHOOK_SECRET_ROTATION). `deployment`, the spec's rule (LEAD-17): only all properties at once, with the deployment key; rotateWebhookSecret answers 404. `property`: owners and admins may also roll this property's secret (rotateWebhookSecret).",
    }),
    status: z.enum(['not_verified', 'rejecting', 'verified']),
    latestRefusal: latestRefusalSchema,
    lastAttemptAt: timestamp.nullable(),
    lastAcceptedAt: timestamp.nullable(),
    notes: z.array(z.string()),
  })
  .openapi('WebhookSetup');

export const webhookLogSchema = z
  .object({
    propertyId: z.uuid(),
    entries: z.array(
      z.object({
        ...deliveryAttemptFields,
        eventId: z.string().nullable(),
        requestBody: z.string().nullable().openapi({
          description: 'Only for attempts that passed the signature check; null otherwise.',
        }),
      }),
    ),
  })
  .openapi('WebhookDeliveryLog');

export const activitySchema = z
  .object({
    propertyId: z.uuid(),
    from: day,
    to: day,
    crawlerDaily: z.array(
      z.object({
        date: day,
        hits: z.number().int(),
        verified: z.number().int(),
        unverified: z.number().int(),
        unverifiable: z.number().int(),
      }),
    ),
    countDualUseAsAi: z
      .boolean()
      .openapi({ description: 'Whether dual-use crawlers are in crawlerDaily and topPages.' }),
    crawlers: z.array(
      z.object({
        crawler: z.string(),
        operator: z.string(),
        operatorName: z.string().openapi({ description: 'The operator as it spells itself (openai: OpenAI).' }),
        category: agentCategorySchema
          .nullable()
          .openapi({ description: 'Null for a name the catalogue no longer knows.' }),
        countedAsAi: z.boolean(),
        hits: z.number().int(),
        verified: z.number().int(),
      }),
    ),
    categories: z.array(
      z.object({
        category: agentCategorySchema.nullable(),
        countedAsAi: z.boolean(),
        hits: z.number().int(),
        verified: z.number().int(),
      }),
    ),
    topPages: z.array(
      z.object({
        path: z.string(),
        hits: z.number().int(),
        firstSeenAt: timestamp.nullable(),
        lastSeenAt: timestamp.nullable(),
      }),
    ),
    aiReferrals: z.array(z.object({ platform: z.string(), visits: z.number().int() })),
    aiReferralsDaily: z.array(z.object({ date: day, platform: z.string(), visits: z.number().int() })),
    topLandingPaths: z.array(z.object({ path: z.string(), visits: z.number().int() })),
    recentLeads: z.array(
      z.object({
        id: z.uuid(),
        receivedAt: timestamp,
        contact: z.string(),
        email: z.string().nullable(),
        platform: z.string(),
        matched: z.boolean(),
        landingPath: z.string().nullable(),
        referrer: z.string().nullable(),
        utmSource: z.string().nullable(),
      }),
    ),
    aiLeadsDaily: z.array(z.object({ date: day, platform: z.string(), leads: z.number().int() })),
    platformNames: z.record(z.string(), z.string()).openapi({
      description:
        'Each AI platform id of this answer in words (chatgpt: ChatGPT); an id the service does not know stays as it is.',
    }),
    crawlerRangesLoaded: z.boolean().openapi({
      description:
        'Whether any operator’s published IP ranges are loaded (`ops crawlers refresh`): until then every crawler hit is unverifiable, not unverified.',
    }),
  })
  .openapi('Activity');

const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the key, to tell keys apart.' }),
    access: accessSchema,
    allProperties: z.boolean(),
    propertyIds: z.array(z.uuid()).openapi({ description: 'The properties a scoped key reads; empty for all.' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().openapi({ description: 'Updated by the read API at most once a minute per key.' }),
    revokedAt: timestamp.nullable(),
  })
  .openapi('ApiKey');

export const apiKeysSchema = z.object({ keys: z.array(apiKeySchema), ...cursorPageFields }).openapi('ApiKeys');
export const apiKeyAnswerSchema = z.object({ key: apiKeySchema }).openapi('ApiKeyAnswer');
export const createdApiKeySchema = z
  .object({
    key: apiKeySchema,
    secret: z.string().openapi({ description: 'The whole key, shown this once: only its hash is kept.' }),
  })
  .openapi('CreatedApiKey');

// The /v1 data of one property: /v1's own resources, so the dashboard and a key's reader see one shape.
const pageFields = {
  total: z.number().int().openapi({ description: 'Every match, not just this page.' }),
  limit: z.number().int(),
  offset: z.number().int(),
  ...cursorPageFields,
};

export const visibilityOverTimeSchema = z
  .object({ propertyId: z.uuid(), from: day, to: day, points: z.array(visibilityPointSchema) })
  .openapi('VisibilityOverTime', { description: 'Every (day, platform) point of the range, newest day first.' });

/**
 * A /v1 response row and, for the console, the brand's rank among the brands the answer names
 * (`position` is a character offset, which says nothing of who was named first).
 */
const consoleAnswerSchema = z
  .object({
    ...responseSchema.shape,
    rank: z.number().int().min(1).nullable().openapi({
      description:
        'The brand’s place among the brands the answer names: 1 + the tracked competitors first named before it. Null when not mentioned.',
    }),
    brandsNamed: z.number().int().min(0).openapi({
      description: 'Brands the answer names: the brand if mentioned, and each tracked competitor it names.',
    }),
  })
  .openapi('ConsoleAnswer');

export const propertyResponsesSchema = z
  .object({ data: z.array(consoleAnswerSchema), ...pageFields })
  .openapi('PropertyResponses');

export const shareOfVoiceSchema = z
  .object({ propertyId: z.uuid(), from: day, to: day, competitors: z.array(competitorShareSchema) })
  .openapi('ShareOfVoice');

export const propertyTasksSchema = z.object({ data: z.array(taskSchema), ...pageFields }).openapi('PropertyTasks');
