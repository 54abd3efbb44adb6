import { importAnswers } from '@vt/answers';
import { consoleConfigSchema, parseConfig } from '@vt/config';
import { createLogger } from '@vt/logger';
import { isolatedQueuePrefix, type StreamingReplica, startStreamingReplica, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '../../start.ts';
import { createConsoleHarness } from '../../testing/index.ts';

// READ_DATABASE_URL in the console: the views of collected answers read a real streaming replica
// of the run's Postgres; the property's access check and everything else read the primary; a
// replica gone means the primary. People and data are made through the harness (the primary).

const h = createConsoleHarness();
let replica: StreamingReplica;
let consoleApp: Awaited<ReturnType<typeof startConsole>>;
let read: (path: string) => Promise<{ status: number; body: { points: { date: string }[] } }>;
let propertyId: string;

const answerOn = (date: string) =>
  JSON.stringify({
    propertyId,
    prompt: 'best crm',
    model: 'chatgpt',
    date,
    answer: 'Acme is excellent.',
    citations: [],
  });

beforeAll(async () => {
  replica = await startStreamingReplica();
  const config = parseConfig('console', consoleConfigSchema, {
    ...testEnv,
    QUEUE_PREFIX: isolatedQueuePrefix(),
    HOST: '127.0.0.1',
    CONSOLE_PORT: '0',
    READ_DATABASE_URL: replica.urlOf(testEnv.DATABASE_URL),
    DATABASE_CONNECT_TIMEOUT_MS: '2000',
  });
  consoleApp = await startConsole(config, createLogger({ name: 'console', level: 'silent' }));
  const owner = await h.signUp('replica-owner');
  const { teamId } = await h.teamOf(owner);
  const created = await h
    .as(owner.token, teamId)
    .post('/api/properties', { name: 'Acme', domain: 'acme.example', plan: 'growth', brandTerms: ['Acme'] });
  propertyId = created.body.property.id;
  read = async (path) => {
    const res = await fetch(`http://127.0.0.1:${consoleApp.port}${path}`, {
      headers: { Authorization: `Bearer ${owner.token}`, 'X-Team-Id': teamId },
    });
    return { status: res.status, body: (await res.json()) as { points: { date: string }[] } };
  };
}, 120_000);

afterAll(async () => {
  await consoleApp?.close();
  await replica?.stop();
  await h.close();
});

const visibleDays = async () => {
  const res = await read(`/api/properties/${propertyId}/visibility?from=2026-05-01&to=2026-05-10`);
  expect(res.status).toBe(200);
  return res.body.points.map((p) => p.date);
};

describe('the console on a read replica (READ_DATABASE_URL)', () => {
  it("reads a property's visibility from the replica, and the property itself from the primary", async () => {
    // Replay held before anything of this property reached the replica: the access check still
    // finds the property (the primary), and the view answers what the replica has: nothing.
    await replica.caughtUp();
    await replica.pauseReplay();
    await importAnswers(h.db, [answerOn('2026-05-08')], { now: new Date('2026-05-10T12:00:00Z') });
    expect(await visibleDays()).toEqual([]);
    await replica.resumeReplay();
    await replica.caughtUp();
    expect(await visibleDays()).toEqual(['2026-05-08']);
  });

  it('with the replica gone, the view reads the primary', async () => {
    await replica.stop();
    await importAnswers(h.db, [answerOn('2026-05-09')], { now: new Date('2026-05-10T12:00:00Z') });
    expect(await visibleDays()).toEqual(['2026-05-09', '2026-05-08']);
    const metrics = await (await fetch(`http://127.0.0.1:${consoleApp.port}/metrics`)).text();
    expect(metrics).toMatch(/^vt_read_replica_fallbacks_total\S* [1-9]/m);
  });
});
