import { promptSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { endpointSuite, expectRowsMatch, hoursBefore, sortBy } from '../testing/index.ts';

// listPrompts (READ-29) against this file's own endpoint world.

const { world, all } = endpointSuite();

describe('GET /v1/prompts', () => {
  it('[READ-29] /v1/prompts: id, propertyId, text, tags, active, createdAt; filter propertyId', async () => {
    const body = await all<{ id: string; propertyId: string }>('/v1/prompts');
    expectRowsMatch(promptSchema, body.data);
    const expected = (['growth', 'starter'] as const).flatMap((prop) =>
      world.properties[prop].promptIds.map((id, i) => ({
        id,
        propertyId: world.properties[prop].id,
        text: `${i === 0 ? 'best tools' : 'compare vendors'} (${prop})`,
        tags: i === 0 ? ['discovery'] : [],
        active: true,
        createdAt: hoursBefore(10 - i).toISOString(),
      })),
    );
    expect(sortBy(body.data, (p) => p.id)).toEqual(sortBy(expected, (p) => p.id));
    const growth = await all<{ id: string; propertyId: string }>('/v1/prompts', {
      propertyId: world.properties.growth.id,
    });
    expect(growth.data.map((p) => p.id).sort()).toEqual([...world.properties.growth.promptIds].sort());
  });
});
