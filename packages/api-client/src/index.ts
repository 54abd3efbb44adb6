import type { Client, ClientOptions } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './read-api.js';

export type { components, operations, paths };

/** The read API's resources and error envelope, as the OpenAPI document describes them. */
export type ReadApiSchemas = components['schemas'];
export type ErrorEnvelope = ReadApiSchemas['ErrorEnvelope'];

export type ReadApiClient = Client<paths>;

/** openapi-fetch's options besides the base URL (a `fetch` of your own, …), and headers to add to every request. */
export type ReadApiClientOptions = Omit<ClientOptions, 'baseUrl' | 'headers'> & { headers?: Record<string, string> };

/**
 * A typed client of the read API (/v1): paths, query parameters and response bodies come from
 * read-api.d.ts, which `pnpm api-client:generate` writes from the OpenAPI document the API serves.
 *
 *     const api = createReadApiClient('https://visibility.example.com', 'vt_live_…');
 *     const { data, error } = await api.GET('/v1/responses', { params: { query: { mentioned: true } } });
 *
 * `data` is the 200 body; otherwise `error` is the `{error: {code, message}}` envelope.
 */
export function createReadApiClient(
  baseUrl: string,
  apiKey: string,
  options: ReadApiClientOptions = {},
): ReadApiClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { Accept: 'application/json', ...options.headers, Authorization: `Bearer ${apiKey}` },
  });
}

export {
  type ReadApiListPath,
  type ReadApiListQuery,
  type ReadApiPage,
  ReadApiPagingError,
  readApiPages,
  readApiRows,
} from './pages.js';
