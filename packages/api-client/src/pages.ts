import type { ReadApiClient } from './index.js';
import type { paths } from './read-api.js';

/** The /v1 lists: every path whose GET answers `{data, total, has_more, next_cursor, …}`. */
export type ReadApiListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { 'application/json': { data: unknown[]; next_cursor: string | null } } } } };
  }
    ? P
    : never;
}[keyof paths];

/** One page of a list, as the API answers it. */
export type ReadApiPage<P extends ReadApiListPath> = paths[P]['get']['responses'][200]['content']['application/json'];

/** A list's filters: its query without the paging, which the iterator drives itself. */
export type ReadApiListQuery<P extends ReadApiListPath> = Omit<
  NonNullable<NonNullable<paths[P]['get']['parameters']>['query']>,
  'offset' | 'starting_after' | 'ending_before'
>;

/** A /v1 answer other than 200 met while paging: its status and the `{error: {code, message}}` envelope. */
export class ReadApiPagingError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = envelopeError(body);
    super(`read API answered ${status}${error ? ` ${error.code}: ${error.message}` : ''}`);
    this.name = 'ReadApiPagingError';
  }
}

/** The `{error: {code, message}}` of an answer's body, if it is one (a proxy's page may be anything). */
function envelopeError(body: unknown): { code: string; message: string } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body;
  if (typeof error !== 'object' || error === null || !('code' in error) || !('message' in error)) return undefined;
  return typeof error.code === 'string' && typeof error.message === 'string'
    ? { code: error.code, message: error.message }
    : undefined;
}

/** A list page's query as the iterator sends it: the filters, and the cursor it is at. */
type PageQuery<P extends ReadApiListPath> = ReadApiListQuery<P> & { starting_after?: string };

/** What openapi-fetch answers for one page: the 200 body, or the error envelope, and the response. */
interface PageAnswer<P extends ReadApiListPath> {
  data?: ReadApiPage<P>;
  error?: unknown;
  response: Response;
}

/**
 * One GET per list, each written with its literal path: openapi-fetch types a GET per literal path,
 * and a call over the union of list paths does not type-check. The mapped type makes a list the API
 * adds fail `pnpm typecheck` here until it has its line, and lets `readApiPages` index it by a
 * generic path with the types kept (TypeScript's correlated access through a mapped type).
 */
const pageFetchers: { [P in ReadApiListPath]: (client: ReadApiClient, query: PageQuery<P>) => Promise<PageAnswer<P>> } =
  {
    '/v1/responses': (client, query) => client.GET('/v1/responses', { params: { query } }),
    '/v1/tasks': (client, query) => client.GET('/v1/tasks', { params: { query } }),
    '/v1/properties': (client, query) => client.GET('/v1/properties', { params: { query } }),
    '/v1/prompts': (client, query) => client.GET('/v1/prompts', { params: { query } }),
    '/v1/visibility': (client, query) => client.GET('/v1/visibility', { params: { query } }),
    '/v1/competitors': (client, query) => client.GET('/v1/competitors', { params: { query } }),
    '/v1/sources': (client, query) => client.GET('/v1/sources', { params: { query } }),
    '/v1/sources/urls': (client, query) => client.GET('/v1/sources/urls', { params: { query } }),
  };

/**
 * Every page of a /v1 list, first to last, following each page's `next_cursor` with
 * `starting_after`: rows added while it pages never shift a row into a page twice (as an offset
 * would). `limit` (in the query) is the page size. A 429 or any other error ends it with a
 * ReadApiPagingError; wait for `Retry-After` and start again from the last page's cursor if needed.
 *
 *     for await (const page of readApiPages(api, '/v1/responses', { mentioned: true, limit: 1000 })) …
 */
export async function* readApiPages<P extends ReadApiListPath>(
  client: ReadApiClient,
  path: P,
  query?: ReadApiListQuery<P>,
): AsyncGenerator<ReadApiPage<P>, void, undefined> {
  const fetchPage: (client: ReadApiClient, query: PageQuery<P>) => Promise<PageAnswer<P>> = pageFetchers[path];
  let cursor: string | undefined;
  do {
    // Object.assign, not a spread: a spread of a generic query loses its type, Object.assign keeps it.
    const pageQuery: PageQuery<P> = Object.assign({}, query, cursor === undefined ? {} : { starting_after: cursor });
    const { data, error, response } = await fetchPage(client, pageQuery);
    if (data === undefined) throw new ReadApiPagingError(response.status, error);
    yield data;
    cursor = data.has_more && data.next_cursor !== null ? data.next_cursor : undefined;
  } while (cursor !== undefined);
}

/** Every row of a /v1 list, page after page (readApiPages). */
export async function* readApiRows<P extends ReadApiListPath>(
  client: ReadApiClient,
  path: P,
  query?: ReadApiListQuery<P>,
): AsyncGenerator<ReadApiPage<P>['data'][number], void, undefined> {
  for await (const page of readApiPages(client, path, query)) yield* page.data;
}
