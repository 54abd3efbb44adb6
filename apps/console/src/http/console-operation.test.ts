import { consoleEndpoints } from '@vt/contracts/console';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { consoleOperation } from './console-operation.ts';

// A console handler is typed by its endpoint: path ids from the path, query and body from their
// schemas, session and team from the access level. `pnpm typecheck` compiles this file, so each
// `@ts-expect-error` fails the check if the mismatch it marks ever compiles.

describe('consoleOperation', () => {
  it('types params from the path, query and body from their schemas, and carries the endpoint', () => {
    const operation = consoleOperation(consoleEndpoints.updatePrompt, async ({ params, body, team }) => {
      expectTypeOf(params).toEqualTypeOf<Record<'id' | 'promptId', string>>();
      expectTypeOf(team.teamId).toBeString();
      return {
        prompt: {
          id: params.promptId,
          text: '',
          active: body.active ?? true,
          tags: [],
          country: null,
          language: null,
          createdAt: '',
        },
      };
    });
    expect(operation).toMatchObject({
      operationId: 'updatePrompt',
      method: 'patch',
      path: '/api/properties/{id}/prompts/{promptId}',
      meta: { access: 'admin' },
      body: consoleEndpoints.updatePrompt.body,
    });
  });

  it('refuses handlers that read what their endpoint does not give', () => {
    const mismatches = () => {
      // @ts-expect-error getProperty's path has `id` only
      consoleOperation(consoleEndpoints.getProperty, async ({ params }) => params.competitorId && undefined);
      const numericSlug = async ({ query }: { query: { slug: number } }) => query && undefined;
      // @ts-expect-error checkSlug's query has a string slug, not a number
      consoleOperation(consoleEndpoints.checkSlug, numericSlug);
      // @ts-expect-error signIn is public: there is no session to read
      consoleOperation(consoleEndpoints.signIn, async ({ session }) => session.user && undefined);
      // @ts-expect-error getMe takes no body
      consoleOperation(consoleEndpoints.getMe, async ({ body }) => body.name);
    };
    expectTypeOf(mismatches).toBeFunction();
  });
});
