import type { ActiveSession, CurrentTeam } from '@vt/accounts';
import type { ConsoleAnswer } from '@vt/contracts/console';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ConsoleHandlerFactory, defineConsoleHandler } from './define-console-handler.ts';
import type { ConsoleHandlerModules } from './index.ts';

// An operation's module is typed by the operation it names: path ids from its path, query and body
// from their schemas, session and team from its access level, the answer from its response schema;
// and operations/index.ts takes exactly one module per catalogued operation. `pnpm typecheck`
// compiles this file, so each `@ts-expect-error` fails the check if the mismatch it marks ever
// compiles.

// Only their types are used: the handlers below are compiled, never called.
declare const promptAnswer: ConsoleAnswer<'updatePrompt'>;
declare const authAnswer: ConsoleAnswer<'signIn'>;
declare const slugAnswer: ConsoleAnswer<'checkSlug'>;
declare const teamAnswer: ConsoleAnswer<'createTeam'>;

describe('defineConsoleHandler', () => {
  it('types the handler from the operation it names, and hands back the factory as it is', () => {
    const factory = defineConsoleHandler('updatePrompt', () => async ({ params, query, body, session, team }) => {
      expectTypeOf(params).toEqualTypeOf<Record<'id' | 'promptId', string>>();
      expectTypeOf(query).toBeUndefined();
      expectTypeOf(body.active).toEqualTypeOf<boolean | undefined>();
      expectTypeOf(session).toEqualTypeOf<ActiveSession>();
      expectTypeOf(team).toEqualTypeOf<CurrentTeam>();
      return promptAnswer;
    });
    expectTypeOf(factory).toEqualTypeOf<ConsoleHandlerFactory<'updatePrompt'>>();
    expect(defineConsoleHandler('updatePrompt', factory)).toBe(factory);
  });

  it('refuses a module whose handler reads what its operation does not give, or answers what it does not take', () => {
    const numericSlug = async ({ query }: { query: { slug: number } }) => ({ ...slugAnswer, slug: String(query.slug) });
    const mismatches = () => {
      defineConsoleHandler('deleteProperty', () => async ({ params }) => {
        // @ts-expect-error deleteProperty's path has `id` only
        void params.competitorId;
        return undefined;
      });
      defineConsoleHandler('removeMember', () => async ({ query }) => {
        // @ts-expect-error removeMember takes no query
        void query.userId;
        return undefined;
      });
      // @ts-expect-error checkSlug's query has a string slug, not a number
      defineConsoleHandler('checkSlug', () => numericSlug);
      defineConsoleHandler('signOut', () => async ({ body }) => {
        // @ts-expect-error signOut takes no body
        void body.email;
        return undefined;
      });
      defineConsoleHandler('updatePrompt', () => async ({ body }) => {
        // @ts-expect-error updatePrompt's body has no text: a prompt's text never changes
        const text: string = body.text;
        return { prompt: { ...promptAnswer.prompt, text } };
      });
      defineConsoleHandler('signIn', () => async ({ session }) => {
        // @ts-expect-error signIn is public: there is no session to read
        return { ...authAnswer, user: session.user };
      });
      defineConsoleHandler('createTeam', () => async ({ team }) => {
        // @ts-expect-error createTeam needs a session, not a current team: the team is being made
        return { ...teamAnswer, role: team.role };
      });
      // @ts-expect-error deleteProperty answers 204, with no body
      defineConsoleHandler('deleteProperty', () => async () => promptAnswer);
    };
    expectTypeOf(mismatches).toBeFunction();
  });
});

describe('the operation modules', () => {
  it('are one per catalogued operation, each typed by its own', () => {
    const mismatches = (modules: ConsoleHandlerModules) => {
      const { listMembers: _listed, ...withoutListMembers } = modules;
      // @ts-expect-error listMembers has no module
      const incomplete: ConsoleHandlerModules = withoutListMembers;
      // @ts-expect-error checkSlug's handler reads a query listMembers does not take, and no current team
      const swapped: ConsoleHandlerModules = { ...modules, listMembers: modules.checkSlug };
      // @ts-expect-error no operation is catalogued under this name
      const uncatalogued: ConsoleHandlerModules = { ...modules, exportTeam: modules.getTeam };
      return [incomplete, swapped, uncatalogued];
    };
    expectTypeOf(mismatches).toBeFunction();
  });
});
