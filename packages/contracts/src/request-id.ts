import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import './errors.ts'; // extends zod with .openapi()

// The request id every HTTP answer of the service carries in `X-Request-Id`, and that the app's
// log lines for the request carry too. A caller (or its proxy) may send its own; one that is not
// 1 to 128 characters of letters, digits and `- _ . : + / =` is not trusted into headers and logs
// and a fresh one (a UUID) is minted instead. The set covers UUIDs, hex and base64 ids (nginx's
// $request_id, Heroku's and Envoy's ids) and leaves out spaces, quotes, commas (two headers
// joined) and control characters.

export const REQUEST_ID_HEADER = 'X-Request-Id';
const MAX_REQUEST_ID_LENGTH = 128;
const REQUEST_ID_PATTERN = new RegExp(`^[A-Za-z0-9._:+/=-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** Whether a caller's `X-Request-Id` is taken as the request's id (else a new one is minted). */
export const isAcceptableRequestId = (value: string): boolean => REQUEST_ID_PATTERN.test(value);

/** The id as the document describes it, once, for the request parameter and the response header. */
export const requestIdSchema = z.string().max(MAX_REQUEST_ID_LENGTH).regex(REQUEST_ID_PATTERN).openapi('RequestId', {
  description: 'A request id: 1 to 128 letters, digits or `- _ . : + / =` (a minted one is a UUID).',
  example: '3f2b8c1e-6d4a-4f5e-9b7c-2a1d0e9f8c7b',
});

/** The header as every operation (of both documents) takes it: optional, echoed back when acceptable. */
export const requestIdParameter = requestIdSchema.optional().openapi({
  param: {
    name: REQUEST_ID_HEADER,
    in: 'header',
    description:
      'Your own id for the request, echoed in the answer’s `X-Request-Id` and written in the service’s log lines for it: 1 to 128 letters, digits or `- _ . : + / =`. Absent or otherwise, the service mints one (a UUID).',
  },
});

/** Every documented answer's headers start with this reference to the component below. */
export const requestIdResponseHeaders = {
  [REQUEST_ID_HEADER]: { $ref: `#/components/headers/${REQUEST_ID_HEADER}` },
};

/** The response header component every documented answer references. */
export const requestIdResponseHeader = {
  description:
    'The request’s id: the `X-Request-Id` the request carried when acceptable, else a UUID the service minted. Every answer carries it and every log line about the request names it: quote it when asking about a request.',
  required: true,
  schema: { $ref: '#/components/schemas/RequestId' },
};

/** The id's schema and the response header component, in a document's registry (both documents). */
export function registerRequestId(registry: OpenAPIRegistry): void {
  registry.register('RequestId', requestIdSchema);
  registry.registerComponent('headers', REQUEST_ID_HEADER, requestIdResponseHeader);
}
