import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { operationFamily, type PathParameterName } from './operation.ts';

// Type-level: a handler is typed by its operation's schemas. `pnpm typecheck` compiles this file,
// so each `@ts-expect-error` below fails the check if the mismatch it marks ever compiles.

const defineOperation = operationFamily<{ caller: string }, { auth: 'key' }>();
const query = z.object({ limit: z.string().transform(Number) });
const params = z.object({ id: z.string() });
const body = z.object({ name: z.string() });
const response = z.object({ data: z.array(z.string()) });

describe('defineOperation types', () => {
  it('gives the handler the schemas’ outputs and the family’s context', () => {
    defineOperation({
      operationId: 'listThings',
      method: 'post',
      path: '/things/{id}',
      meta: { auth: 'key' },
      params,
      query,
      body,
      response,
      handle: async (input) => {
        expectTypeOf(input.query).toEqualTypeOf<{ limit: number }>();
        expectTypeOf(input.params).toEqualTypeOf<{ id: string }>();
        expectTypeOf(input.body).toEqualTypeOf<{ name: string }>();
        expectTypeOf(input.caller).toEqualTypeOf<string>();
        return { data: [] };
      },
    });
  });

  it('refuses a handler whose query, params or body type is not its schema’s', () => {
    defineOperation({
      operationId: 'q',
      method: 'get',
      path: '/q',
      meta: { auth: 'key' },
      query,
      // @ts-expect-error the query's limit is a number once parsed, not a string
      handle: async (_input: { query: { limit: string }; caller: string }) => undefined,
    });
    defineOperation({
      operationId: 'p',
      method: 'get',
      path: '/p/{id}',
      meta: { auth: 'key' },
      params,
      // @ts-expect-error params has `id`, not `userId`
      handle: async ({ params: { userId } }: { params: { userId: string }; caller: string }) => userId && undefined,
    });
    defineOperation({
      operationId: 'b',
      method: 'post',
      path: '/b',
      meta: { auth: 'key' },
      // @ts-expect-error without a body schema the handler gets no body
      handle: async ({ body }) => body.name,
    });
  });

  it('refuses an answer that does not fit the response schema', () => {
    defineOperation({
      operationId: 'r',
      method: 'get',
      path: '/r',
      meta: { auth: 'key' },
      response,
      // @ts-expect-error data must be strings
      handle: async () => ({ data: [1] }),
    });
  });

  it('refuses an operation without its family’s facts', () => {
    // @ts-expect-error meta.auth is required by this family
    defineOperation({ operationId: 'm', method: 'get', path: '/m', meta: {}, handle: async () => undefined });
  });

  it('names path parameters from the path', () => {
    expectTypeOf<PathParameterName<'/api/properties/{id}/prompts/{promptId}'>>().toEqualTypeOf<'id' | 'promptId'>();
    expectTypeOf<PathParameterName<'/api/team'>>().toEqualTypeOf<never>();
  });
});
