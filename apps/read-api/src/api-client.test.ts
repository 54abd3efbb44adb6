import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReadApiClient, type ErrorEnvelope, type ReadApiClient, type ReadApiSchemas } from '@vt/api-client';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// The typed client against the real read API, listening on a real port over the real databases.
const TODAY = new Date('2026-03-15T12:00:00Z');
const harness = createReadApiHarness({ now: TODAY });
let world: ReadWorld;
let server: Server;
let baseUrl: string;
let api: ReadApiClient;

beforeAll(async () => {
  world = await seedReadWorld(harness.db, TODAY);
  server = harness.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = createReadApiClient(baseUrl, world.keys.all);
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness.close();
});

describe('createReadApiClient over HTTP', () => {
  it('[READ-30] listResponses: typed query (limit, mentioned, from) and typed rows', async () => {
    const { data, error, response } = await api.GET('/v1/responses', {
      params: { query: { mentioned: true, from: '2026-03-10', limit: 5 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expectTypeOf(data!.data).toEqualTypeOf<ReadApiSchemas['Response'][]>();
    expectTypeOf(data!.total).toEqualTypeOf<number>();
    // from alone runs to today: 6 days, hits on even days (3), 2 paid properties × 2 prompts × 2 models.
    expect(data!.total).toBe(24);
    expect(data!.data).toHaveLength(5);
    for (const row of data!.data) {
      expect(row.mentioned).toBe(true);
      expect(row.date).toBe('2026-03-15');
      expect(row.position).toBe(10);
      expect(row.sentiment).toBe(0.5);
      expect([world.properties.growth.id, world.properties.starter.id]).toContain(row.property.id);
      expect(row.matchedTerm).toBe(row.property.id === world.properties.growth.id ? 'growth' : 'starter');
      expect(row).not.toHaveProperty('text');
    }
    const misses = await api.GET('/v1/responses', {
      params: { query: { mentioned: false, propertyId: world.properties.starter.id, model: 'chatgpt', limit: 1 } },
    });
    expect(misses.data?.total).toBe(30); // 15 odd days of the default 30 × 2 prompts
    expect(misses.data?.data[0]).toMatchObject({
      mentioned: false,
      matchedTerm: null,
      position: null,
      model: 'chatgpt',
    });
  });

  it('[READ-30] getResponse: typed path id, the list row plus its text; an unknown id is a typed 404', async () => {
    const list = await api.GET('/v1/responses', { params: { query: { limit: 1 } } });
    const row = list.data!.data[0]!;
    const { data, error } = await api.GET('/v1/responses/{id}', { params: { path: { id: row.id } } });
    expect(error).toBeUndefined();
    expectTypeOf(data!.data.text).toEqualTypeOf<string>();
    const { text, ...rest } = data!.data;
    expect(rest).toEqual(row);
    expect(text).toContain('# Answer');

    const missing = await api.GET('/v1/responses/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error?.error.code).toBe('NOT_FOUND');
  });

  it('[READ-30] listTasks: typed status filter and typed task fields', async () => {
    const all = await api.GET('/v1/tasks');
    expect(all.data?.total).toBe(3);
    expect(all.data?.data.map((task) => task.title)).toEqual([
      'Title only',
      'Publish a comparison page',
      'Old done task',
    ]);

    const { data } = await api.GET('/v1/tasks', {
      params: { query: { status: 'in_progress', propertyId: world.properties.growth.id } },
    });
    const task = data!.data[0]!;
    expectTypeOf(task.priority).toEqualTypeOf<'urgent' | 'high' | 'medium' | 'low' | null>();
    expectTypeOf(task.assignee).toEqualTypeOf<{ id: string; name: string } | null>();
    expect(data!.total).toBe(1);
    expect(task).toMatchObject({
      id: world.tasks.step1.id,
      status: 'in_progress',
      priority: 'high',
      dueDate: '2026-03-22',
      assignee: { id: world.user.id, name: 'Ada Assignee' },
      planId: world.tasks.plan.id,
      description: 'Cover pricing and integrations.',
    });
    expect(task.labels.map((label) => [label.name, label.color]).sort()).toEqual([
      ['content', null],
      ['seo', '#2f80ed'],
    ]);
  });

  it('[READ-30] getVisibility, listProperties, listPrompts, listCompetitors, listSources, listSourceUrls', async () => {
    const growth = world.properties.growth.id;
    const visibility = await api.GET('/v1/visibility', {
      params: { query: { propertyId: growth, from: '2026-03-15', to: '2026-03-15' } },
    });
    expectTypeOf(visibility.data!.data).toEqualTypeOf<ReadApiSchemas['VisibilityPoint'][]>();
    expect(visibility.data?.data).toEqual([
      expect.objectContaining({
        date: '2026-03-15',
        propertyId: growth,
        model: 'chatgpt',
        responses: 2,
        mentions: 2,
        visibilityRate: 1,
        averagePosition: 10,
      }),
      expect.objectContaining({
        date: '2026-03-15',
        propertyId: growth,
        model: 'perplexity',
        responses: 2,
        mentions: 2,
        visibilityRate: 1,
      }),
    ]);

    const properties = await api.GET('/v1/properties', { params: { query: { limit: 10, offset: 0 } } });
    expect(properties.data?.total).toBe(2);
    expect(properties.data?.data.map((p) => p.id).sort()).toEqual([growth, world.properties.starter.id].sort());
    expect(properties.data?.data.find((p) => p.id === growth)?.plan).toBe('growth');

    const prompts = await api.GET('/v1/prompts', { params: { query: { propertyId: growth } } });
    expect(prompts.data?.data.map((p) => p.id).sort()).toEqual([...world.properties.growth.promptIds].sort());

    const competitors = await api.GET('/v1/competitors', { params: { query: { propertyId: growth } } });
    expect(competitors.data?.data.map((c) => [c.name, c.mentions > 0])).toEqual([
      ['Rival', true],
      ['Quiet', false],
    ]);

    const sources = await api.GET('/v1/sources', { params: { query: { propertyId: growth, to: '2026-03-15' } } });
    expect(sources.data?.data.map((s) => s.domain).sort()).toEqual(['docs.growth.example.com', 'wikipedia.org']);

    const urls = await api.GET('/v1/sources/urls', {
      params: { query: { propertyId: growth, domain: 'www.wikipedia.org' } },
    });
    expect(urls.data?.data).toEqual([
      expect.objectContaining({
        url: 'https://www.wikipedia.org/wiki/Vendors',
        domain: 'wikipedia.org',
        lastSeen: '2026-03-15',
      }),
    ]);
  });

  it('[READ-30] a refused key comes back as the typed error envelope, with no data', async () => {
    const stranger = createReadApiClient(`${baseUrl}/`, 'vt_live_not-a-real-key');
    const { data, error, response } = await stranger.GET('/v1/tasks');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expectTypeOf(error!).toEqualTypeOf<ErrorEnvelope>();
    expect(error).toEqual({ error: { code: 'INVALID_KEY', message: expect.any(String) } });

    const revoked = await createReadApiClient(baseUrl, world.keys.revoked).GET('/v1/properties');
    expect(revoked.response.status).toBe(401);
    expect(revoked.error?.error.code).toBe('INVALID_KEY');

    const invalid = await api.GET('/v1/responses', { params: { query: { limit: 0 } } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error.code).toBe('INVALID_PARAM');
  });

  it('[READ-30] the types refuse what the document does not allow (checked by tsc)', () => {
    // Each line below fails to compile if the generated types stop constraining it.
    const typeChecks = (client: ReadApiClient) => [
      // @ts-expect-error limit is an integer, not a string
      client.GET('/v1/responses', { params: { query: { limit: '5' } } }),
      // @ts-expect-error mentioned is a boolean
      client.GET('/v1/responses', { params: { query: { mentioned: 'yes' } } }),
      // @ts-expect-error status is one of the task statuses
      client.GET('/v1/tasks', { params: { query: { status: 'archived' } } }),
      // @ts-expect-error the detail needs its path id
      client.GET('/v1/responses/{id}', {}),
      // @ts-expect-error no such path
      client.GET('/v1/leads'),
      // @ts-expect-error /v1 is read-only: no POST anywhere
      client.POST('/v1/tasks', {}),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });
});
