import { type ReadEndpointId, type ReadQueryOf, readEndpoints } from '@vt/contracts';
import type { ReadOperation } from '@vt/read-model';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readRoute } from './read-route.ts';

// A /v1 operation is paired with its endpoint by type: the query its operation reads must be the
// one the endpoint's schema parses. `pnpm typecheck` compiles this file, so each
// `@ts-expect-error` fails the check if a mismatched pair ever compiles.

// Only its type is used: the pairs below are compiled, never run.
declare const operations: { [Id in ReadEndpointId]: ReadOperation<ReadQueryOf<Id>> };

describe('readRoute', () => {
  it('pairs an endpoint with an operation of its own query type', () => {
    const route = readRoute(readEndpoints.listTasks, async ({ query }) => ({ data: [query.status], total: 1 }));
    expect(route).toMatchObject({ operationId: 'listTasks', method: 'get', path: '/v1/tasks' });
    expect(route.meta.endpoint).toBe(readEndpoints.listTasks);
  });

  it('refuses an operation whose query is another endpoint’s', () => {
    const pair = () => {
      // @ts-expect-error listResponses reads `mentioned` and a range, which the tasks query has not
      readRoute(readEndpoints.listTasks, operations.listResponses);
      // @ts-expect-error listTasks reads `status`, which the visibility query has not
      readRoute(readEndpoints.getVisibility, operations.listTasks);
    };
    expectTypeOf(pair).toBeFunction();
  });

  it('declares the day range on the endpoint, not guessed from its query', () => {
    const ranged = Object.values(readEndpoints)
      .filter((endpoint) => endpoint.dayRange)
      .map((endpoint) => endpoint.operationId);
    expect(ranged).toEqual(['listResponses', 'getVisibility', 'listCompetitors', 'listSources', 'listSourceUrls']);
  });
});
