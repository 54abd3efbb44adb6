import { z } from 'zod';
import './errors.ts'; // extends zod with .openapi()

// The read API's resources: the one definition that shapes responses, types the handlers and
// writes the OpenAPI document. camelCase fields, UUID ids, `yyyy-MM-dd` UTC days, ISO 8601 instants.

const utcDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .openapi({ example: '2026-11-20', format: 'date' });

const isoInstant = z.iso.datetime().openapi({ example: '2026-11-20T14:03:07.120Z' });

const shareSchema = z.number().min(0).max(1);

const PAID_PLANS = ['starter', 'growth', 'scale'] as const;

/** A response's fields, shared by the list row and the detail so the detail is one plain object schema. */
const responseFields = {
  id: z.uuid(),
  promptId: z.uuid().openapi({ description: 'Equals the id of a prompt on /v1/prompts.' }),
  prompt: z.string().openapi({ description: 'Prompt text that produced the answer.' }),
  model: z.string().openapi({
    description:
      'AI platform identifier (chatgpt, perplexity, claude, gemini, copilot); also the value of the model filter.',
    example: 'chatgpt',
  }),
  date: utcDaySchema.openapi({ description: 'UTC day the answer was collected.' }),
  mentioned: z.boolean(),
  matchedTerm: z.string().nullable().openapi({ description: 'Brand term that matched; null when not mentioned.' }),
  position: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'Character position of the first mention; null when not mentioned.' }),
  sentiment: z
    .number()
    .nullable()
    .openapi({ description: 'Mention sentiment, higher is more positive; null when not mentioned.' }),
  excerpt: z
    .string()
    // Characters as Postgres' varchar(300) and JSON Schema's maxLength count them: code points.
    .refine((text) => [...text].length <= 300, 'at most 300 characters')
    .openapi({ description: 'Plain-text excerpt of the answer, at most 300 characters.', maxLength: 300 }),
  sourceUrls: z.array(z.string()).openapi({ description: 'URLs the platform cited or consulted, in citation order.' }),
  country: z.string().nullable().openapi({
    description:
      'ISO 3166-1 alpha-2 country the question was asked from (the prompt’s, else the property’s); null when none was set, or the answer was imported without one.',
    example: 'DE',
  }),
  language: z.string().nullable().openapi({
    description: 'BCP 47 language the question was asked in; null when none was set.',
    example: 'de',
  }),
  truncated: z.string().nullable().openapi({
    description:
      'Set when the platform stopped before the end of its answer: its reason as the vendor reported it (max_output_tokens, length, max_tokens, pause_turn, MAX_TOKENS). The verdict judges the part it gave. Null for a whole answer, an imported one, or one collected before this was kept.',
    example: null,
  }),
  property: z.object({ id: z.uuid(), name: z.string() }),
};

export const responseSchema = z
  .object(responseFields)
  .openapi('Response', { description: 'One collected AI answer with the mention verdict for one property.' });

/**
 * Built from the same fields rather than by extending `responseSchema`: an extended registered
 * schema is written as `allOf: [{$ref: Response}, {text}]`, which reference pages render as two
 * fragments and code generators as an intersection. This is one object with every field.
 */
export const responseDetailSchema = z
  .object({ ...responseFields, text: z.string().openapi({ description: 'The complete answer as markdown.' }) })
  .openapi('ResponseDetail', {
    description: 'A response with its complete text; every other field equals the list row.',
  });

export const TASK_STATUSES = ['backlog', 'todo', 'in_progress', 'done', 'canceled'] as const;
const TASK_PRIORITIES = ['urgent', 'high', 'medium', 'low'] as const;

export const taskSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().openapi({ description: 'Empty string when the task is title-only.' }),
    status: z.enum(TASK_STATUSES),
    priority: z.enum(TASK_PRIORITIES).nullable().openapi({ description: 'Null means no priority.' }),
    labels: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        color: z.string().nullable().openapi({ description: 'Hex colour (#rrggbb) or null.', example: '#2f80ed' }),
      }),
    ),
    dueDate: utcDaySchema.nullable(),
    assignee: z
      .object({ id: z.uuid(), name: z.string() })
      .nullable()
      .openapi({ description: 'Null means unassigned.' }),
    propertyId: z.uuid(),
    planId: z.uuid().nullable().openapi({ description: 'Owning action plan; null for an ad-hoc task.' }),
    createdAt: isoInstant,
    updatedAt: isoInstant,
  })
  .openapi('Task', { description: 'An accepted action-plan step or ad-hoc task.' });

export const propertySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z
      .string()
      .openapi({ description: 'Bare lower-case host, no scheme (example.com).', example: 'example.com' }),
    plan: z.enum(PAID_PLANS),
    createdAt: isoInstant,
  })
  .openapi('Property', { description: 'A tracked brand on a paid plan.' });

export const promptSchema = z
  .object({
    id: z.uuid(),
    propertyId: z.uuid(),
    text: z.string(),
    tags: z.array(z.string()),
    active: z.boolean().openapi({ description: 'Whether the prompt is still collected daily.' }),
    createdAt: isoInstant,
  })
  .openapi('Prompt');

export const visibilityPointSchema = z
  .object({
    date: utcDaySchema,
    propertyId: z.uuid(),
    model: z.string().openapi({ example: 'perplexity' }),
    responses: z.number().int().openapi({ description: 'Answers collected that day.' }),
    mentions: z.number().int().openapi({ description: 'Answers that mentioned the brand.' }),
    visibilityRate: shareSchema.openapi({ description: 'mentions / responses, 0 to 1.' }),
    averagePosition: z
      .number()
      .nullable()
      .openapi({ description: 'Mean character position of the first mention; null without mentions.' }),
    averageSentiment: z.number().nullable().openapi({ description: 'Mean mention sentiment; null without mentions.' }),
  })
  .openapi('VisibilityPoint', { description: 'One (UTC day, property, model) point of the visibility time series.' });

export const competitorShareSchema = z
  .object({
    id: z.uuid(),
    propertyId: z.uuid(),
    name: z.string(),
    domain: z.string().nullable(),
    mentions: z.number().int().openapi({ description: 'Answers in the range that named the competitor.' }),
    shareOfVoice: shareSchema.openapi({
      description: "mentions / (the brand's mentions + every competitor's mentions) for the property, 0 to 1.",
    }),
    brand: z
      .object({
        mentions: z.number().int(),
        shareOfVoice: shareSchema,
      })
      .openapi({ description: "The property's own brand over the same answers, for comparison." }),
  })
  .openapi('CompetitorShare', { description: 'A competitor with its mentions and share of voice over the range.' });

export const sourceDomainSchema = z
  .object({
    domain: z.string().openapi({ description: 'Lower-case host without a leading www.', example: 'wikipedia.org' }),
    citations: z.number().int().openapi({ description: 'Citations of any URL on the domain.' }),
    responses: z.number().int().openapi({ description: 'Answers that cited the domain at least once.' }),
    share: shareSchema.openapi({ description: 'citations / all citations matching the filters, 0 to 1.' }),
  })
  .openapi('SourceDomain', { description: 'A domain AI answers cited, over the range.' });

export const sourceUrlSchema = z
  .object({
    url: z.string(),
    domain: z.string(),
    citations: z.number().int(),
    responses: z.number().int(),
    firstSeen: utcDaySchema.openapi({ description: 'First UTC day in the range the URL was cited.' }),
    lastSeen: utcDaySchema.openapi({ description: 'Last UTC day in the range the URL was cited.' }),
  })
  .openapi('SourceUrl', { description: 'A URL AI answers cited, over the range.' });

export type ResponseRow = z.infer<typeof responseSchema>;
export type ResponseDetail = z.infer<typeof responseDetailSchema>;
export type TaskRow = z.infer<typeof taskSchema>;
export type PropertyRow = z.infer<typeof propertySchema>;
export type PromptRow = z.infer<typeof promptSchema>;
export type VisibilityPoint = z.infer<typeof visibilityPointSchema>;
export type CompetitorShare = z.infer<typeof competitorShareSchema>;
export type SourceDomain = z.infer<typeof sourceDomainSchema>;
export type SourceUrl = z.infer<typeof sourceUrlSchema>;
