import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Schema = z.ZodType | undefined;

/** What a handler gets for an input part: the schema's output, or undefined when there is no schema. */
export type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler returns: what its response schema takes in, or nothing for a 204. */
export type Answer<S extends Schema> = S extends z.ZodType ? z.input<S> : undefined;

/** The `{name}` parameters of an OpenAPI path, as a union: `/a/{id}/b/{bId}` gives `'id' | 'bId'`. */
export type PathParameterName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterName<Rest>
  : never;

/** A request once its family has authenticated it (`Ctx`) and its parts have passed their schemas. */
export type OperationInput<Ctx, P extends Schema, Q extends Schema, B extends Schema> = Ctx & {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
};

/** What an operation's parts are checked against, and what is documented of it. */
export interface OperationShape<Meta> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: `{id}` for a path parameter. */
  path: string;
  /** The success status (200 unless said). */
  status?: number;
  /**
   * The media type of a success that is written as it is produced (`text/csv; charset=utf-8`):
   * the handler answers a `StreamedAnswer`, and no response schema applies.
   */
  streams?: string;
  /** The family's own facts: who may call it, its rate-limit class, its OpenAPI words. */
  meta: Meta;
}

/** One operation, defined once: its schemas type its handler. */
export interface OperationDefinition<Ctx, Meta, P extends Schema, Q extends Schema, B extends Schema, R extends Schema>
  extends OperationShape<Meta> {
  params?: P;
  query?: Q;
  body?: B;
  response?: R;
  handle: (input: OperationInput<Ctx, P, Q, B>) => Promise<Answer<R>>;
}

/**
 * An operation as the router holds it. The router hands `handle` only what the operation's own
 * schemas parsed, which is the input its definition typed; here the types are no longer needed.
 */
export interface Operation<Ctx, Meta> extends OperationShape<Meta> {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  handle: (input: Ctx & { params: unknown; query: unknown; body: unknown }) => Promise<unknown>;
}

/**
 * The `defineOperation` of a family whose handlers all get `Ctx` (the caller, as its
 * authentication found it) and whose operations carry `Meta`. A handler whose query, params or
 * body type differs from its schema's output, or whose answer does not fit the response schema,
 * does not compile.
 */
export function operationFamily<Ctx, Meta>() {
  function defineOperation<
    P extends Schema = undefined,
    Q extends Schema = undefined,
    B extends Schema = undefined,
    R extends Schema = undefined,
  >(definition: OperationDefinition<Ctx, Meta, P, Q, B, R>): Operation<Ctx, Meta>;
  function defineOperation(definition: Operation<Ctx, Meta>): Operation<Ctx, Meta> {
    return definition;
  }
  return defineOperation;
}
