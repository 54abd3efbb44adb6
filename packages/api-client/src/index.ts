import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './read-api.d.ts';

export type { components, operations, paths };

/** The read API's resources and error envelope, as the OpenAPI document describes them. */
export type ReadApiSchemas = components['schemas'];
export type ErrorEnvelope = ReadApiSchemas['ErrorEnvelope'];

export type ReadApiClient = Client<paths>;

/**
 * A typed client of the read API (/v1): paths, query parameters and response bodies come from
 * read-api.d.ts, which `pnpm api-client:generate` writes from the OpenAPI document the API serves.
 *
 *     const api = createReadApiClient('https://visibility.example.com', 'vt_live_…');
 *     const { data, error } = await api.GET('/v1/responses', { params: { query: { mentioned: true } } });
 *
 * `data` is the 200 body; otherwise `error` is the `{error: {code, message}}` envelope.
 */
export function createReadApiClient(baseUrl: string, apiKey: string): ReadApiClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
  });
}
