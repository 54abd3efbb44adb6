import { parseConfig, readApiConfigSchema } from '@vt/config';
import { generateApiKey } from '@vt/credentials';
import { createLogger } from '@vt/logger';
import {
  isolatedQueuePrefix,
  type StreamingReplica,
  startStreamingReplica,
  testDb,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadApi } from './start.ts';

// READ_DATABASE_URL against a real streaming replica of the run's Postgres (pg_basebackup on
// loopback): /v1 reads the replica, API keys the primary, and a replica gone means the primary.

const db = testDb();
let replica: StreamingReplica;
let api: Awaited<ReturnType<typeof startReadApi>>;
let teamId: string;
let key: string;

beforeAll(async () => {
  replica = await startStreamingReplica();
  const config = parseConfig('read-api', readApiConfigSchema, {
    ...testEnv,
    QUEUE_PREFIX: isolatedQueuePrefix(),
    HOST: '127.0.0.1',
    READ_API_PORT: '0',
    READ_CACHE_TTL_MS: '0', // every request reads the database
    API_KEY_CACHE_TTL_MS: '1',
    READ_DATABASE_URL: replica.urlOf(testEnv.DATABASE_URL),
    DATABASE_CONNECT_TIMEOUT_MS: '2000',
  });
  api = await startReadApi(config, createLogger({ name: 'read-api', level: 'silent' }));
  const team = await db.team.create({ data: { name: 'Replica', slug: uniqueSlug('replica') } });
  teamId = team.id;
  const issued = generateApiKey();
  await db.apiKey.create({ data: { teamId, name: 'k', keyHash: issued.hash, prefix: issued.prefix } });
  key = issued.key;
}, 120_000);

afterAll(async () => {
  await api?.close();
  await replica?.stop();
});

const newProperty = async (name: string) =>
  (
    await db.property.create({
      data: { teamId, name, domain: `${name.toLowerCase()}.example`, brandTerms: [], plan: 'starter' },
    })
  ).id;

async function listedNames(): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${api.port}/v1/properties`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { name: string }[] };
  return body.data.map((p) => p.name).sort();
}

async function fallbacks(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${api.port}/metrics`)).text();
  return Number(/^vt_read_replica_fallbacks_total\S* (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

describe('the read API on a read replica (READ_DATABASE_URL)', () => {
  it('reads /v1 data from the replica: a row written on the primary shows once the replica replays it', async () => {
    await newProperty('Alpha');
    await replica.caughtUp();
    expect(await listedNames()).toEqual(['Alpha']);

    // Replay held: the primary has Beta, the replica does not, and /v1 answers as the replica.
    await replica.pauseReplay();
    await newProperty('Beta');
    expect(await db.property.count({ where: { teamId } })).toBe(2);
    expect(await listedNames()).toEqual(['Alpha']);

    await replica.resumeReplay();
    await replica.caughtUp();
    expect(await listedNames()).toEqual(['Alpha', 'Beta']);
    expect(await fallbacks()).toBe(0);
  });

  it('with the replica gone, /v1 reads the primary (the documented rule), counted in vt_read_replica_fallbacks_total', async () => {
    await replica.stop();
    await newProperty('Gamma'); // on the primary only: the replica is no more
    expect(await listedNames()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await listedNames()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await fallbacks()).toBeGreaterThanOrEqual(2);
    const ready = await fetch(`http://127.0.0.1:${api.port}/readyz`);
    expect(ready.status).toBe(200); // the primary answers: the API is ready
  });
});
