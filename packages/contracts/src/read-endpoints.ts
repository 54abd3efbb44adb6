import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponseConfig } from '@vt/http-operations';
import { z } from 'zod';
import { READ_API_AUTH_CHALLENGES } from './auth-challenge.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { cursorPageFields } from './list-cursor.ts';
import {
  competitorsQuery,
  listPromptsQuery,
  listPropertiesQuery,
  listResponsesQuery,
  listTasksQuery,
  type ReadQuery,
  sourcesQuery,
  sourceUrlsQuery,
  visibilityQuery,
} from './read-params.ts';
import { requestIdParameter, requestIdResponseHeaders } from './request-id.ts';
import {
  competitorShareSchema,
  promptSchema,
  propertySchema,
  responseDetailSchema,
  responseSchema,
  sourceDomainSchema,
  sourceUrlSchema,
  taskSchema,
  visibilityPointSchema,
} from './resources.ts';

/** A sunset must fall at least this long after the deprecation (spec: Versioning). */
const MIN_SUNSET_DAYS = 90;
const DAY_MS = 86_400_000;

export interface Deprecation {
  /** When deprecation took effect: sent as `Deprecation: @<unix seconds>`. */
  deprecatedAt: Date;
  /** When the endpoint goes away: sent as `Sunset: <HTTP-date>`. */
  sunsetAt: Date;
}

/**
 * The resources of /v1, one tag each, in the order the reference page lists them. Each endpoint
 * carries exactly one, so the page groups every operation under its resource.
 */
export const READ_API_TAGS = [
  { name: 'Responses', description: 'Collected AI answers with their mention verdicts, and one answer with its text.' },
  { name: 'Tasks', description: 'Accepted action-plan steps and ad-hoc tasks.' },
  { name: 'Properties', description: 'The tracked brands on an active paid plan.' },
  { name: 'Prompts', description: 'The prompts asked of every AI platform each UTC day.' },
  { name: 'Visibility', description: 'How often the brand is mentioned, per UTC day, property and platform.' },
  { name: 'Competitors', description: 'Tracked competitors and their share of voice beside the brand.' },
  { name: 'Sources', description: 'Domains and URLs the AI answers cite.' },
] as const;

export type ReadApiTag = (typeof READ_API_TAGS)[number]['name'];

/**
 * One /v1 operation: the catalogue entry the read API routes from and the OpenAPI document is
 * generated from, so the two cannot drift. List endpoints have a query schema; the detail
 * endpoint has only a path id and reads no query parameter.
 */
export interface ReadEndpoint<Query extends z.ZodType<ReadQuery> = z.ZodType<ReadQuery>> {
  operationId: string;
  /** The resource it reads: its group in the document and on the reference page. */
  tag: ReadApiTag;
  /** OpenAPI form, `{id}` for a path parameter. */
  path: `/v1/${string}`;
  summary: string;
  description: string;
  shape: 'list' | 'detail';
  query?: Query;
  /**
   * A time series: reads `from` and `to` as an inclusive range of UTC days (30 ending today by
   * default). The others read no range, so neither the clock nor midnight touches their answers.
   */
  dayRange?: true;
  item: z.ZodType;
  deprecation?: Deprecation;
}

/** Checked at definition, so a deprecated route with a too-early sunset never starts. */
export function defineReadEndpoint<Query extends z.ZodType<ReadQuery>>(
  endpoint: ReadEndpoint<Query>,
): ReadEndpoint<Query> {
  const { deprecation } = endpoint;
  if (deprecation) {
    const gapDays = (deprecation.sunsetAt.getTime() - deprecation.deprecatedAt.getTime()) / DAY_MS;
    if (!(gapDays >= MIN_SUNSET_DAYS)) {
      throw new Error(
        `${endpoint.operationId}: Sunset must be at least ${MIN_SUNSET_DAYS} days after the deprecation date`,
      );
    }
  }
  return endpoint;
}

const rangeNote =
  'Time series: `from` and `to` are inclusive UTC days; with neither, the last 30 UTC days ending today.';

export const readEndpoints = {
  listResponses: defineReadEndpoint({
    operationId: 'listResponses',
    tag: 'Responses',
    path: '/v1/responses',
    summary: 'List responses (mention verdicts)',
    description: `Responses of paid properties in the key's scope, newest day first (ties by id). Rows carry the excerpt, never the full text. ${rangeNote}`,
    shape: 'list',
    query: listResponsesQuery,
    dayRange: true,
    item: responseSchema,
  }),
  getResponse: defineReadEndpoint({
    operationId: 'getResponse',
    tag: 'Responses',
    path: '/v1/responses/{id}',
    summary: 'Get one response with its full text',
    description:
      "One response including `text`. Reads no query parameter, so it never answers 400; an id that is not a UUID or not in the key's scope answers 404.",
    shape: 'detail',
    item: responseDetailSchema,
  }),
  listTasks: defineReadEndpoint({
    operationId: 'listTasks',
    tag: 'Tasks',
    path: '/v1/tasks',
    summary: 'List accepted tasks',
    description:
      "Accepted action-plan steps and ad-hoc tasks of paid properties in the key's scope, newest created first (ties by id). Declined or proposed plan steps never appear.",
    shape: 'list',
    query: listTasksQuery,
    item: taskSchema,
  }),
  listProperties: defineReadEndpoint({
    operationId: 'listProperties',
    tag: 'Properties',
    path: '/v1/properties',
    summary: 'List properties',
    description:
      "Properties in the key's scope on an active paid plan (starter, growth, scale), newest first. Free and lapsed properties appear nowhere in /v1.",
    shape: 'list',
    query: listPropertiesQuery,
    item: propertySchema,
  }),
  listPrompts: defineReadEndpoint({
    operationId: 'listPrompts',
    tag: 'Prompts',
    path: '/v1/prompts',
    summary: 'List prompts',
    description: "Tracked prompts of paid properties in the key's scope, newest first. Inactive prompts are included.",
    shape: 'list',
    query: listPromptsQuery,
    item: promptSchema,
  }),
  getVisibility: defineReadEndpoint({
    operationId: 'getVisibility',
    tag: 'Visibility',
    path: '/v1/visibility',
    summary: 'Visibility time series',
    description: `One point per (UTC day, property, model) that has answers: responses, mentions, visibility rate, average position and sentiment of the mentions. Newest day first, then property id and model. ${rangeNote}`,
    shape: 'list',
    query: visibilityQuery,
    dayRange: true,
    item: visibilityPointSchema,
  }),
  listCompetitors: defineReadEndpoint({
    operationId: 'listCompetitors',
    tag: 'Competitors',
    path: '/v1/competitors',
    summary: 'Competitors and share of voice',
    description: `Every competitor of the properties in scope with its mentions and share of voice over the range, beside the brand's own; competitors without mentions are listed with 0. Most mentioned first, then name. ${rangeNote}`,
    shape: 'list',
    query: competitorsQuery,
    dayRange: true,
    item: competitorShareSchema,
  }),
  listSources: defineReadEndpoint({
    operationId: 'listSources',
    tag: 'Sources',
    path: '/v1/sources',
    summary: 'Cited domains',
    description: `Domains the answers cited over the range, with citation and answer counts and share of all citations. Most cited first, then domain. ${rangeNote}`,
    shape: 'list',
    query: sourcesQuery,
    dayRange: true,
    item: sourceDomainSchema,
  }),
  listSourceUrls: defineReadEndpoint({
    operationId: 'listSourceUrls',
    tag: 'Sources',
    path: '/v1/sources/urls',
    summary: 'Cited URLs',
    description: `URLs the answers cited over the range, with their domain, counts and first/last day seen. Most cited first, then URL. ${rangeNote}`,
    shape: 'list',
    query: sourceUrlsQuery,
    dayRange: true,
    item: sourceUrlSchema,
  }),
} as const;

export type ReadEndpointId = keyof typeof readEndpoints;

/** The parsed query of a catalogued endpoint, as its operation reads it. */
export type ReadQueryOf<Id extends ReadEndpointId> =
  (typeof readEndpoints)[Id] extends ReadEndpoint<infer Query> ? z.output<Query> : never;

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': 'Requests allowed per window (one minute) for this API key.',
  'X-RateLimit-Remaining': 'Requests left in the current window.',
  'X-RateLimit-Reset': 'Unix time (seconds) at which the current window ends and the budget refills.',
} as const;

const integerHeader = (description: string) => ({ description, required: true, schema: { type: 'integer' as const } });

function rateLimitHeaders() {
  return Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).map(([name, text]) => [name, integerHeader(text)]));
}

/** The Bearer challenge of every 401 (RFC 6750), with the `error` a refused key or header gets. */
const authChallengeHeader = {
  'WWW-Authenticate': {
    description: `The Bearer challenge (RFC 6750): \`${READ_API_AUTH_CHALLENGES.MISSING_AUTH}\` without an Authorization header; with \`error="invalid_request"\` when it is not \`Bearer <key>\` (INVALID_AUTH); with \`error="invalid_token"\` for a malformed, unknown or revoked key (INVALID_KEY).`,
    required: true,
    schema: { type: 'string' as const },
    example: READ_API_AUTH_CHALLENGES.INVALID_KEY,
  },
};

const errorResponse = (description: string, headers?: ResponseConfig['headers']) =>
  errorResponseConfig(errorEnvelopeSchema, description, { ...requestIdResponseHeaders, ...headers });

/** Adds one endpoint's GET operation, with every status it can answer, to an OpenAPI registry. */
export function registerReadEndpoint(registry: OpenAPIRegistry, endpoint: ReadEndpoint): void {
  const success = z.object(
    endpoint.shape === 'list'
      ? {
          data: z.array(endpoint.item),
          total: z.number().int().openapi({ description: 'Every match, not just this page.' }),
          ...cursorPageFields,
        }
      : { data: endpoint.item },
  );
  const etagHeader = {
    description: 'A weak validator of this answer: send it in If-None-Match and an unchanged answer is a 304.',
    required: true,
    schema: { type: 'string' as const },
  };
  const successHeaders: ResponseConfig['headers'] = {
    ...requestIdResponseHeaders,
    ...rateLimitHeaders(),
    ETag: etagHeader,
  };
  if (endpoint.shape === 'list') {
    successHeaders.Link = {
      description:
        'RFC 8288 links to the next page (`rel="next"`, with starting_after) and the previous one (`rel="prev"`, with ending_before), when there is one; the same query otherwise.',
      schema: { type: 'string' },
    };
  }
  if (endpoint.deprecation) {
    successHeaders.Deprecation = {
      description: 'RFC 9745: @<unix seconds> when the deprecation took effect.',
      schema: { type: 'string' },
    };
    successHeaders.Sunset = {
      description: 'RFC 8594: HTTP-date when the endpoint goes away.',
      schema: { type: 'string' },
    };
  }
  const responses: Record<number, ResponseConfig> = {
    200: { description: 'Success.', headers: successHeaders, content: { 'application/json': { schema: success } } },
    304: {
      description: 'Not modified: If-None-Match names this answer’s ETag. No body, no budget headers.',
      headers: { ...requestIdResponseHeaders, ETag: etagHeader },
    },
  };
  if (endpoint.query)
    responses[400] = errorResponse('INVALID_PARAM: a query parameter is malformed; the message names it.');
  responses[401] = errorResponse('MISSING_AUTH, INVALID_AUTH or INVALID_KEY.', authChallengeHeader);
  if (endpoint.shape === 'detail') responses[404] = errorResponse("NOT_FOUND: no such id in the key's scope.");
  responses[429] = errorResponse('RATE_LIMIT_EXCEEDED: the key used its budget for this minute.', {
    ...rateLimitHeaders(),
    'Retry-After': integerHeader('Seconds until the budget refills.'),
  });
  responses[500] = errorResponse('INTERNAL_ERROR.');

  registry.registerPath({
    method: 'get',
    path: endpoint.path,
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    deprecated: endpoint.deprecation ? true : undefined,
    security: [{ bearerAuth: [] }],
    request: {
      headers: [requestIdParameter],
      query: endpoint.query as z.ZodObject | undefined,
      params: endpoint.path.includes('{id}')
        ? z.object({ id: z.string().openapi({ description: 'The resource id (a UUID).', format: 'uuid' }) })
        : undefined,
    },
    responses,
  });
}
