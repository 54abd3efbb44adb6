import { z } from 'zod';
import { countryCodeSchema, languageTagSchema } from '../answer-location.ts';
import {
  competitorsQuery,
  dateRangeParams,
  listResponsesQuery,
  listTasksQuery,
  visibilityQuery,
} from '../read-params.ts';
import {
  accessSchema,
  BLANK_MESSAGE,
  displayNameSchema,
  domainSchema,
  emailSchema,
  passwordSchema,
  planSchema,
  roleSchema,
  slugSchema,
  teamBrandingSchema,
  teamSettingsSchema,
  termListSchema,
  uuidSchema,
} from './fields.ts';
import { API_KEY_PROPERTIES_MAX, NAME_MAX, PROMPT_TEXT_MAX, SIGN_IN_PASSWORD_MAX } from './limits.ts';
import { weakPasswordReason } from './password-rules.ts';

// Request bodies and queries of the console API. Bodies are strict: an unknown field is refused
// with its name in `details`, so a typo never passes silently.

export const signUpBody = z
  .strictObject({ email: emailSchema, password: passwordSchema, name: displayNameSchema })
  .superRefine(({ email, password }, ctx) => {
    const reason = weakPasswordReason(password, email);
    // The field's own rules have spoken already; this adds only what the email makes weak.
    if (reason && !weakPasswordReason(password)) ctx.addIssue({ code: 'custom', path: ['password'], message: reason });
  })
  .openapi('SignUp');

/** Any password is accepted as input: the rules apply when one is set, not when one is tried. */
export const signInBody = z
  .strictObject({ email: emailSchema, password: z.string().min(1).max(SIGN_IN_PASSWORD_MAX) })
  .openapi('SignIn');

export const selectTeamBody = z.strictObject({ teamId: uuidSchema }).openapi('SelectTeam');

export const createTeamBody = z.strictObject({ name: displayNameSchema, slug: slugSchema }).openapi('CreateTeam');

export const updateTeamBody = z
  .strictObject({
    name: displayNameSchema.optional(),
    slug: slugSchema.optional(),
    settings: teamSettingsSchema.optional(),
    branding: teamBrandingSchema.optional(),
  })
  .openapi('UpdateTeam');

export const checkSlugQuery = z.object({ slug: z.string().max(NAME_MAX) });

export const changeRoleBody = z.strictObject({ userId: uuidSchema, role: roleSchema }).openapi('ChangeRole');

/**
 * Where the buyers are: a country and a language the prompts are asked in, each null to clear it
 * (the platform's own default, or for a prompt its property's).
 */
function locationFields(whose: string, fallback: string) {
  return {
    country: countryCodeSchema
      .nullable()
      .optional()
      .openapi({
        description: `${whose} ISO 3166-1 alpha-2 country code (US, DE), either case; null clears it (${fallback} is asked without one).`,
        example: 'DE',
      }),
    language: languageTagSchema
      .nullable()
      .optional()
      .openapi({
        description: `${whose} BCP 47 language tag (en, de, pt-BR), stored canonical; null clears it.`,
        example: 'de',
      }),
  };
}

export const createPropertyBody = z
  .strictObject({
    name: displayNameSchema,
    domain: domainSchema,
    plan: planSchema.default('free'),
    brandTerms: termListSchema.optional().openapi({ description: 'Defaults to the property’s name.' }),
    ...locationFields('The property’s', 'every prompt without its own'),
  })
  .openapi('CreateProperty');

export const updatePropertyBody = z
  .strictObject({
    name: displayNameSchema.optional(),
    plan: planSchema.optional(),
    brandTerms: termListSchema.optional(),
    countDualUseAsAi: z.boolean().optional().openapi({
      description:
        'Count dual-use crawlers (search crawlers whose fetches also feed AI answers, such as Applebot; agents ai.robots.txt lists as AI that crawler-user-agents tags otherwise, such as Amazonbot) in the AI totals.',
    }),
    ...locationFields('The property’s', 'every prompt without its own'),
  })
  .openapi('UpdateProperty');

export const createCompetitorBody = z
  .strictObject({
    name: displayNameSchema,
    domain: domainSchema.optional(),
    terms: termListSchema.optional().openapi({ description: 'Defaults to the competitor’s name.' }),
  })
  .openapi('CreateCompetitor');

export const createPromptBody = z
  .strictObject({
    text: z
      .string()
      .trim()
      .min(1, BLANK_MESSAGE)
      .max(PROMPT_TEXT_MAX)
      .openapi({ description: 'Trimmed; empty or only spaces is refused.' }),
    tags: termListSchema.optional(),
    ...locationFields('The prompt’s own', 'the property’s'),
  })
  .openapi('CreatePrompt');

export const updatePromptBody = z
  .strictObject({
    active: z.boolean().optional(),
    tags: termListSchema.optional(),
    ...locationFields('The prompt’s own', 'the property’s'),
  })
  .openapi('UpdatePrompt');

export const ACTIVITY_MAX_DAYS = 366;

/** The same `from`/`to` as /v1's time series: real calendar days, inclusive, 30 ending today by default. */
export const activityQuery = z.object({ ...dateRangeParams });

export const createApiKeyBody = z
  .strictObject({
    name: displayNameSchema.default('API key'),
    access: accessSchema.default('read'),
    propertyIds: z
      .array(uuidSchema)
      .max(API_KEY_PROPERTIES_MAX)
      .optional()
      .openapi({ description: 'Scope the key to these properties of the team; omit for every property.' }),
  })
  .openapi('CreateApiKey');

// The /v1 data of one property, for the dashboard: /v1's own parameters less `propertyId`, which
// is the path's. The same schemas, so a filter means the same thing in both APIs.
export const visibilityOverTimeQuery = visibilityQuery.pick({ model: true, from: true, to: true });
export const propertyResponsesQuery = listResponsesQuery.omit({ propertyId: true });
export const shareOfVoiceQuery = competitorsQuery.pick({ from: true, to: true });
export const propertyTasksQuery = listTasksQuery.omit({ propertyId: true });

/** A CSV export's range: the activity's `from`/`to`, inclusive UTC days (30 ending today by default, at most 366). */
export const exportQuery = z.object({ ...dateRangeParams });

export const rotateWebhookSecretBody = z
  .strictObject({
    overlapHours: z.number().int().min(0).max(168).default(24).openapi({
      description:
        'How long the secret being replaced keeps verifying, in hours (0 to 168, default 24; 0: refused at once).',
    }),
  })
  .openapi('RotateWebhookSecret');
