import type { ReadEndpoint, ReadQuery } from '@vt/contracts';
import { type Operation, operationFamily } from '@vt/http-operations';
import type { KeyPrincipal, ReadOperation } from '@vt/read-model';
import { z } from 'zod';
import type { PreparedAnswer } from './conditional-answer.ts';

/** One /v1 read, as the router's pipeline runs it for an operation's parsed query and path id. */
export interface ReadCall {
  query: ReadQuery;
  id: string | undefined;
  operation: ReadOperation<ReadQuery>;
}

/** What a /v1 handler gets beside its input: the authenticated key and the pipeline that answers for it. */
export interface V1Context {
  principal: KeyPrincipal;
  /** Ranges, counts against the budget, caches and runs the read; resolves to the 200 (or 304) to send. */
  read: (call: ReadCall) => Promise<PreparedAnswer>;
}

export interface V1Meta {
  endpoint: ReadEndpoint;
}

export type V1Operation = Operation<V1Context, V1Meta>;

/** A catalogued endpoint with the operation that answers it, as a test or the catalogue pairs them. */
export interface ReadRoute {
  endpoint: ReadEndpoint;
  operation: ReadOperation<ReadQuery>;
}

const defineV1Operation = operationFamily<V1Context, V1Meta>();

/** The detail endpoint's `{id}`; any text, since an id that is not a UUID names nothing (404, never 400). */
const idParams = z.object({ id: z.string().optional() });

/** The 200's body, serialized once and reused by the answer cache; the endpoint's item schema documents it. */
const serializedBody = z.custom<PreparedAnswer>();

/**
 * `unknown` when an operation reading `Reads` can take the `Parsed` query and reads no parameter
 * the query lacks, else `never`. Every query parameter is optional, so assignability alone would
 * let an operation read `mentioned` from a query that has none (it would always be undefined).
 */
type ReadsOnly<Parsed, Reads> = [Parsed] extends [Reads]
  ? [Exclude<keyof Reads, keyof Parsed>] extends [never]
    ? unknown
    : never
  : never;

/**
 * A /v1 operation: the endpoint's GET, answered by `operation` with the query the endpoint's
 * own schema parsed. An operation whose query type is not the schema's output does not compile.
 */
export function readRoute<Query extends z.ZodType<ReadQuery>, Reads = z.output<Query>>(
  endpoint: ReadEndpoint<Query>,
  operation: ReadOperation<Reads> & ReadsOnly<z.output<Query>, Reads>,
): V1Operation;
export function readRoute(endpoint: ReadEndpoint, operation: ReadOperation<ReadQuery>): V1Operation {
  return defineV1Operation({
    operationId: endpoint.operationId,
    method: 'get',
    path: endpoint.path,
    meta: { endpoint },
    params: idParams,
    query: endpoint.query,
    response: serializedBody,
    // A detail endpoint reads no query parameter: its query is empty whatever is sent.
    handle: ({ params, query, read }) => read({ query: query ?? {}, id: params.id, operation }),
  });
}
