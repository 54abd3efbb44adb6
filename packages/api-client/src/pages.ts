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
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`read API answered ${status}${error?.code ? ` ${error.code}: ${error.message}` : ''}`);
    this.name = 'ReadApiPagingError';
  }
}

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
  // openapi-fetch's GET is typed per literal path; over the union of list paths it is called loosely.
  const get = client.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> } },
  ) => Promise<{ data?: ReadApiPage<P>; error?: unknown; response: Response }>;
  let cursor: string | undefined;
  do {
    const { data, error, response } = await get(path, {
      params: { query: { ...query, ...(cursor === undefined ? {} : { starting_after: cursor }) } },
    });
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
  for await (const page of readApiPages(client, path, query)) yield* page.data as ReadApiPage<P>['data'][number][];
}
