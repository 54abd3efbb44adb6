import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@vt/credentials';
import { answerScheduleJob, createQueue } from '@vt/queue';
import { createReadApiHarness } from '@vt/read-api/testing';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { runOpsProgram } from '../program.ts';
import { ops } from '../testing/run-ops.ts';

// `ops answers import`: answers collected elsewhere, judged by the verdict engine, stored with
// their sources and competitor mentions, replacing an answer for the same key, refusing bad lines
// one by one; and /v1 serving what was imported.

const db = testDb();
const readApi = createReadApiHarness({ now: new Date() });
afterAll(() => readApi.close());
const dir = mkdtempSync(join(tmpdir(), 'vt-answers-'));
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

async function property() {
  const slug = uniqueSlug('answers');
  const team = await db.team.create({ data: { name: slug, slug } });
  const created = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.io', plan: 'growth', brandTerms: ['Acme', 'Acme Analytics'] },
  });
  const globex = await db.competitor.create({ data: { propertyId: created.id, name: 'Globex', terms: ['Globex'] } });
  const issued = generateApiKey();
  await db.apiKey.create({ data: { teamId: team.id, name: 'k', keyHash: issued.hash, prefix: issued.prefix } });
  return { id: created.id, globexId: globex.id, key: issued.key };
}

function file(name: string, lines: (object | string)[]) {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return path;
}

describe('ops answers import', () => {
  it('judges and stores each answer, makes unknown prompts, and /v1 serves the verdicts and rollups', async () => {
    const p = await property();
    const path = file('first.ndjson', [
      {
        propertyId: p.id,
        prompt: 'best privacy-friendly analytics?',
        model: 'chatgpt',
        date: yesterday,
        answer:
          'For privacy, **Acme Analytics** is excellent. Globex is cheaper. See [the review](https://review.example/a?utm_source=x).',
        citations: ['https://acme.io/pricing#plans'],
      },
      {
        propertyId: p.id,
        prompt: 'best privacy-friendly analytics?',
        model: 'perplexity',
        date: yesterday,
        answer: 'Plausible and Matomo are popular choices.',
        citations: [],
      },
    ]);
    const { code, json } = await ops('answers', 'import', '--file', path);
    expect(code).toBe(0);
    expect(json).toEqual({ imported: 2, replaced: 0, rejected: [] });

    const prompts = await db.prompt.findMany({ where: { propertyId: p.id } });
    expect(prompts.map((x) => x.text)).toEqual(['best privacy-friendly analytics?']);
    const rows = await db.response.findMany({
      where: { propertyId: p.id },
      include: { sources: { orderBy: { ordinal: 'asc' } }, competitorMentions: true },
      orderBy: { model: 'asc' },
    });
    expect(rows.map((r) => [r.model, r.mentioned, r.matchedTerm])).toEqual([
      ['chatgpt', true, 'Acme Analytics'],
      ['perplexity', false, null],
    ]);
    expect(rows[0]?.position).toBe(rows[0]?.text.indexOf('Acme Analytics'));
    expect(rows[0]?.sentiment).toBeGreaterThan(0);
    expect(rows[0]?.sources.map((s) => [s.url, s.domain])).toEqual([
      ['https://acme.io/pricing', 'acme.io'],
      ['https://review.example/a', 'review.example'],
    ]);
    expect(rows[0]?.competitorMentions.map((m) => m.competitorId)).toEqual([p.globexId]);

    const v1 = (path: string) => request(readApi.app).get(path).set('Authorization', `Bearer ${p.key}`);
    const responses = await v1(`/v1/responses?propertyId=${p.id}`);
    expect(responses.body.total).toBe(2);
    const visibility = await v1(`/v1/visibility?propertyId=${p.id}&from=${yesterday}&to=${yesterday}`);
    expect(
      visibility.body.data.map((d: { model: string; responses: number; mentions: number }) => [
        d.model,
        d.responses,
        d.mentions,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['chatgpt', 1, 1],
        ['perplexity', 1, 0],
      ]),
    );
    const sources = await v1(`/v1/sources?propertyId=${p.id}&from=${yesterday}&to=${yesterday}`);
    expect(sources.body.data.map((s: { domain: string }) => s.domain).sort()).toEqual(['acme.io', 'review.example']);
    const competitors = await v1(`/v1/competitors?propertyId=${p.id}&from=${yesterday}&to=${yesterday}`);
    expect(JSON.stringify(competitors.body)).toContain('Globex');
  });

  it('replaces the answer for the same property, prompt, model and day, keeping its id and the counts right', async () => {
    const p = await property();
    const line = (answer: string, citations: string[]) => ({
      propertyId: p.id,
      prompt: 'which tool?',
      model: 'claude',
      date: yesterday,
      answer,
      citations,
    });
    await ops('answers', 'import', '--file', file('v1.ndjson', [line('Acme is great.', ['https://a.example/x'])]));
    const before = await db.response.findFirstOrThrow({ where: { propertyId: p.id } });
    const second = await ops(
      'answers',
      'import',
      '--file',
      file('v2.ndjson', [line('Only Globex here.', ['https://b.example/y'])]),
    );
    expect(second.json).toEqual({ imported: 1, replaced: 1, rejected: [] });
    const after = await db.response.findFirstOrThrow({
      where: { propertyId: p.id },
      include: { sources: true, competitorMentions: true },
    });
    expect(after.id).toBe(before.id);
    expect(after).toMatchObject({ mentioned: false, matchedTerm: null, text: 'Only Globex here.' });
    expect(after.sources.map((s) => s.url)).toEqual(['https://b.example/y']);
    expect(after.competitorMentions).toHaveLength(1);
    const counts = await db.responseDailyCount.findMany({ where: { propertyId: p.id } });
    expect(counts.map((c) => [c.model, c.responses, c.mentions])).toEqual([['claude', 1, 0]]);
  });

  it('imports the same file twice without a second row: every line replaces itself', async () => {
    const p = await property();
    const path = file('twice.ndjson', [
      { propertyId: p.id, prompt: 'q1', model: 'gemini', date: yesterday, answer: 'Acme.' },
      { propertyId: p.id, prompt: 'q2', model: 'gemini', date: today, answer: 'Nothing.' },
    ]);
    expect((await ops('answers', 'import', '--file', path)).json).toMatchObject({ imported: 2, replaced: 0 });
    expect((await ops('answers', 'import', '--file', path)).json).toMatchObject({ imported: 2, replaced: 2 });
    expect(await db.response.count({ where: { propertyId: p.id } })).toBe(2);
    expect(await db.prompt.count({ where: { propertyId: p.id } })).toBe(2);
  });

  it('refuses bad lines one by one, with the line number and the reason, and imports the rest', async () => {
    const p = await property();
    const good = { propertyId: p.id, prompt: 'q', model: 'copilot', date: yesterday, answer: 'Acme is fine.' };
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const path = file('bad.ndjson', [
      good,
      '{"propertyId": ',
      { ...good, model: 'bard' },
      { ...good, date: '2026-02-30' },
      { ...good, date: future },
      { ...good, propertyId: '00000000-0000-4000-8000-000000000000' },
      { ...good, answerText: 'typo' },
      '',
      { ...good, prompt: 'another', answer: '' },
      { ...good, prompt: 'last one' },
    ]);
    const { code, json } = await ops('answers', 'import', '--file', path);
    expect(code).toBe(0);
    expect(json.imported).toBe(2);
    expect(json.rejected.map((r: { line: number }) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    expect(json.rejected[0].reason).toBe('not a JSON object');
    expect(json.rejected[1].reason).toMatch(/^model: /);
    expect(json.rejected[2].reason).toMatch(/^date: /);
    expect(json.rejected[3].reason).toBe(`date: ${future} is in the future`);
    expect(json.rejected[4].reason).toMatch(/^propertyId: no property/);
    expect(json.rejected[5].reason).toBe('answerText: unknown field');
    expect(json.rejected[6].reason).toMatch(/^answer: /);
    expect(await db.response.count({ where: { propertyId: p.id } })).toBe(2);
  });

  it('says which file it cannot read', async () => {
    const { code, json } = await ops('answers', 'import', '--file', join(dir, 'missing.ndjson'));
    expect(code).toBe(1);
    expect(json.error.code).toBe('file_unreadable');
  });

  it('answers collect asks the collector for a day’s questions, on its schedule queue', async () => {
    const prefix = isolatedQueuePrefix();
    let out = '';
    const code = await runOpsProgram(['answers', 'collect', '--day', yesterday, '--json'], {
      env: { ...testEnv, QUEUE_PREFIX: prefix },
      stdout: (t) => {
        out += t;
      },
      stderr: () => {},
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ day: yesterday, requested: true });
    const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const queue = createQueue(answerScheduleJob, redis, prefix);
    try {
      const jobs = await queue.getJobs(['waiting']);
      expect(jobs.map((j) => [j.name, j.data])).toEqual([['collect-day', { day: yesterday }]]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await closeRedisConnection(redis);
    }
    const bad = await ops('answers', 'collect', '--day', 'tomorrow');
    expect(bad.json.error.code).toBe('invalid_argument');
  });

  it('[READ-24] serves imported answers whose promptId is a prompt on /v1/prompts and whose model is the model filter', async () => {
    const p = await property();
    const line = (prompt: string, model: string) => ({
      propertyId: p.id,
      prompt,
      model,
      date: yesterday,
      answer: 'Acme.',
    });
    await ops(
      'answers',
      'import',
      '--file',
      file('read24.ndjson', [line('first?', 'claude'), line('second?', 'gemini')]),
    );
    const v1 = (path: string) => request(readApi.app).get(path).set('Authorization', `Bearer ${p.key}`);
    const responses = (await v1(`/v1/responses?propertyId=${p.id}`)).body.data as { promptId: string; model: string }[];
    const prompts = (await v1(`/v1/prompts?propertyId=${p.id}`)).body.data as { id: string; text: string }[];
    expect(prompts.map((x) => x.text).sort()).toEqual(['first?', 'second?']);
    for (const r of responses) expect(prompts.map((x) => x.id)).toContain(r.promptId);
    const claude = await v1(`/v1/responses?propertyId=${p.id}&model=claude`);
    expect(claude.body.data.map((r: { model: string }) => r.model)).toEqual(['claude']);
  });
});
