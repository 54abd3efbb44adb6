import { propertySchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { endpointSuite, expectRowsMatch, sortBy } from '../testing/index.ts';

// listProperties (READ-8, READ-29) against this file's own endpoint world.

const { harness, world, all } = endpointSuite();

describe('GET /v1/properties', () => {
  it('[READ-8] /v1/properties lists only the paid, active properties (no free, no lapsed)', async () => {
    const body = await all<{ id: string }>('/v1/properties');
    const ids = body.data.map((p) => p.id).sort();
    expect(ids).toEqual([world.properties.growth.id, world.properties.starter.id].sort());
    expect(ids).not.toContain(world.properties.free.id);
    expect(ids).not.toContain(world.properties.lapsed.id);
  });

  it('[READ-29] /v1/properties: id, name, domain, plan, createdAt', async () => {
    const body = await all<{ id: string; createdAt: string }>('/v1/properties');
    expectRowsMatch(propertySchema, body.data);
    const expected = (['growth', 'starter'] as const).map((prop) => ({
      id: world.properties[prop].id,
      name: world.properties[prop].name,
      domain: `${prop}.example.com`,
      plan: prop,
    }));
    const stored = await harness.db.property.findMany({ where: { id: { in: expected.map((p) => p.id) } } });
    expect(sortBy(body.data, (p) => p.id)).toEqual(
      sortBy(
        expected.map((p) => ({ ...p, createdAt: stored.find((s) => s.id === p.id)!.createdAt.toISOString() })),
        (p) => p.id,
      ),
    );
    const teamB = await all('/v1/properties', {}, 'teamB');
    expect(teamB.data).toEqual([
      expect.objectContaining({ id: world.properties.other.id, domain: 'other.example.com', plan: 'scale' }),
    ]);
  });
});
