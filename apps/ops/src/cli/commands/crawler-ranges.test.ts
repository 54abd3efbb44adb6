import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_AGENT_CATALOGUE } from '@vt/attribution';
import { opsConfigSchema, parseConfig } from '@vt/config';
import { testDb, testEnv, writeFixtureRanges } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpsError } from '../ops-error.ts';
import {
  fetchPublishedRanges,
  loadRangesFromDirectory,
  loadStoredRangeIndex,
  refreshCrawlerRanges,
  storeRangeSets,
} from './crawler-ranges.ts';

// crawler_ip_range_sets is global and the test database is shared by parallel files, so every row
// this file stores belongs to an operator named with this run's suffix, and only those are asserted
// on and removed.

const suffix = randomBytes(4).toString('hex');
const op = (name: string) => `test-${name}-${suffix}`;
const ctx = () => ({ db: testDb(), config: parseConfig('ops', opsConfigSchema, testEnv) });
// The network tests fetch from local servers only: no list, no key directory.
const NO_KEY_DIRECTORIES = { ...BUNDLED_AGENT_CATALOGUE, operators: {} };
const tempDir = () => mkdtempSync(join(tmpdir(), 'vt-ranges-'));

/** The fixture files copied under this run's operator names. */
function ownFixtureDir(): string {
  const source = writeFixtureRanges();
  const dir = tempDir();
  for (const name of readdirSync(source)) {
    writeFileSync(join(dir, `${op(name.replace(/\.json$/, ''))}.json`), readFileSync(join(source, name)));
  }
  return dir;
}

const rangesJson = (creationTime: string, prefixes: string[]) =>
  JSON.stringify({
    creationTime,
    prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })),
  });

afterAll(async () => {
  await testDb().crawlerIpRangeSet.deleteMany({ where: { operator: { endsWith: `-${suffix}` } } });
});

describe('loadRangesFromDirectory', () => {
  it('reads one <operator>.json per operator, as the traffic generator writes them', async () => {
    const sets = await loadRangesFromDirectory(writeFixtureRanges());
    expect(sets.map((s) => s.operator)).toEqual([
      'amazon',
      'anthropic',
      'bytedance',
      'commoncrawl',
      'duckduckgo',
      'meta',
      'mistral',
      'openai',
      'perplexity',
    ]);
    const openai = sets.find((s) => s.operator === 'openai');
    expect(openai).toMatchObject({
      creationTime: new Date('2026-11-20T00:00:00Z'),
      prefixes: ['192.0.2.0/26', '2001:db8:1::/48'],
    });
    expect(openai?.source).toMatch(/\/openai\.json$/);
  });

  it('merges <operator>.<part>.json files of one operator, keeping the oldest creationTime', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'openai.gptbot.json'), rangesJson('2026-11-20T00:00:00.000000', ['192.0.2.0/26']));
    writeFileSync(
      join(dir, 'openai.searchbot.json'),
      rangesJson('2026-10-01T00:00:00Z', ['192.0.2.0/26', '2001:db8::/32']),
    );
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const [openai, ...rest] = await loadRangesFromDirectory(dir);
    expect(rest).toEqual([]);
    expect(openai).toMatchObject({
      operator: 'openai',
      creationTime: new Date('2026-10-01T00:00:00Z'),
      prefixes: ['192.0.2.0/26', '2001:db8::/32'],
    });
    expect(openai?.source).toMatch(/openai\.gptbot\.json, .*openai\.searchbot\.json$/);
  });

  it('fails naming the file when one is unreadable, a CIDR is bad or a name is not an operator', async () => {
    const cases: [string, string, RegExp][] = [
      ['openai.json', '{"prefixes": [', /openai\.json: .*JSON/],
      [
        'openai.json',
        rangesJson('2026-11-20T00:00:00Z', ['192.0.2.0/33']),
        /openai\.json: .*"192\.0\.2\.0\/33" is not an IPv4 CIDR/,
      ],
      ['OpenAI.json', rangesJson('2026-11-20T00:00:00Z', ['192.0.2.0/24']), /OpenAI\.json: name it <operator>\.json/],
    ];
    for (const [name, content, message] of cases) {
      const dir = tempDir();
      writeFileSync(join(dir, name), content);
      await expect(loadRangesFromDirectory(dir)).rejects.toThrow(message);
      await expect(loadRangesFromDirectory(dir)).rejects.toBeInstanceOf(OpsError);
    }
  });

  it('fails on a missing directory or one without JSON files', async () => {
    await expect(loadRangesFromDirectory(join(tempDir(), 'missing'))).rejects.toThrow(/cannot read the directory/);
    await expect(loadRangesFromDirectory(tempDir())).rejects.toThrow(/holds no <operator>\.json files/);
  });
});

describe('fetchPublishedRanges', () => {
  let server: Server;
  let base: string;
  const served = new Map<string, string>();

  beforeAll(async () => {
    const dir = writeFixtureRanges();
    for (const name of readdirSync(dir)) served.set(`/${name}`, readFileSync(join(dir, name), 'utf8'));
    served.set('/not-json.json', '<html>moved</html>');
    server = createServer((req, res) => {
      const body = served.get(req.url ?? '');
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? '');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('fetches every URL of every operator and merges an operator’s files', async () => {
    const { sets, failures } = await fetchPublishedRanges(fetch, {
      openai: [`${base}/openai.json`, `${base}/anthropic.json`],
      perplexity: [`${base}/perplexity.json`],
    });
    expect(failures).toEqual([]);
    expect(sets).toEqual([
      {
        operator: 'openai',
        creationTime: new Date('2026-11-20T00:00:00Z'),
        prefixes: ['192.0.2.0/26', '2001:db8:1::/48', '192.0.2.64/26'],
        source: `${base}/openai.json, ${base}/anthropic.json`,
      },
      {
        operator: 'perplexity',
        creationTime: new Date('2026-11-20T00:00:00Z'),
        prefixes: ['192.0.2.128/26'],
        source: `${base}/perplexity.json`,
      },
    ]);
  });

  it('leaves out an operator any of whose files fails, and lists each failure', async () => {
    const { sets, failures } = await fetchPublishedRanges(fetch, {
      openai: [`${base}/openai.json`, `${base}/gone.json`],
      meta: [`${base}/not-json.json`],
      mistral: [`${base}/mistral.json`],
      amazon: ['http://127.0.0.1:1/amazon.json'],
    });
    expect(sets.map((s) => s.operator)).toEqual(['mistral']);
    expect(failures).toEqual([
      { operator: 'openai', url: `${base}/gone.json`, message: 'HTTP 404' },
      { operator: 'meta', url: `${base}/not-json.json`, message: expect.stringMatching(/JSON/) },
      { operator: 'amazon', url: 'http://127.0.0.1:1/amazon.json', message: expect.stringMatching(/fetch failed/) },
    ]);
  });

  it('refreshes from the operators (injected sources) and stores what it fetched', async () => {
    const sources = { [op('fetched')]: [`${base}/duckduckgo.json`] };
    const result = await refreshCrawlerRanges(
      ctx(),
      {},
      { fetchImpl: fetch, sources, catalogueUrls: {}, keyCatalogue: NO_KEY_DIRECTORIES },
    );
    expect(result.operators).toEqual([
      {
        operator: op('fetched'),
        prefixes: 1,
        creationTime: '2026-11-20T00:00:00.000Z',
        source: `${base}/duckduckgo.json`,
      },
    ]);
    const { index } = await loadStoredRangeIndex(testDb());
    expect(index.verify(op('fetched'), '203.0.113.70')).toBe('verified');
  });

  it('stores the operators that were fetched and still fails, naming the ones that were not', async () => {
    const sources = { [op('partial-ok')]: [`${base}/meta.json`], [op('partial-bad')]: [`${base}/gone.json`] };
    const error = await refreshCrawlerRanges(
      ctx(),
      {},
      { fetchImpl: fetch, sources, catalogueUrls: {}, keyCatalogue: NO_KEY_DIRECTORIES },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpsError);
    expect(error).toMatchObject({ code: 'ranges_fetch_failed' });
    expect((error as Error).message).toMatch(
      new RegExp(`stored ${op('partial-ok')}; failed, previous set kept: ${op('partial-bad')} .*HTTP 404`),
    );
    const stored = await testDb().crawlerIpRangeSet.findMany({
      where: { operator: { in: [op('partial-ok'), op('partial-bad')] } },
    });
    expect(stored.map((s) => s.operator)).toEqual([op('partial-ok')]);
  });

  it('fails without storing anything when no operator could be fetched', async () => {
    const sources = { [op('none')]: [`${base}/gone.json`] };
    await expect(
      refreshCrawlerRanges(
        ctx(),
        {},
        { fetchImpl: fetch, sources, catalogueUrls: {}, keyCatalogue: NO_KEY_DIRECTORIES },
      ),
    ).rejects.toThrow(/no operator's ranges could be fetched/);
    expect(await testDb().crawlerIpRangeSet.count({ where: { operator: op('none') } })).toBe(0);
  });
});

describe('storing the range sets', () => {
  it('[CRAWL-13] refreshes from a directory and every reader then verifies against the stored sets', async () => {
    const before = Date.now();
    const result = await refreshCrawlerRanges(ctx(), { from: ownFixtureDir() });
    expect(result.operators).toHaveLength(9);
    expect(result.operators.find((o) => o.operator === op('openai'))).toMatchObject({
      prefixes: 2,
      creationTime: '2026-11-20T00:00:00.000Z',
      source: expect.stringMatching(new RegExp(`${op('openai')}\\.json$`)),
    });
    expect(Date.parse(result.takenAt)).toBeGreaterThanOrEqual(before);

    const { index, takenAt } = await loadStoredRangeIndex(testDb());
    expect(takenAt).toBeInstanceOf(Date);
    expect(index.verify(op('openai'), '192.0.2.10')).toBe('verified');
    expect(index.verify(op('openai'), '2001:db8:1:2::3')).toBe('verified');
    expect(index.verify(op('openai'), '192.0.2.70')).toBe('unverified');
    expect(index.verify(op('anthropic'), '192.0.2.70')).toBe('verified');
    expect(index.verify(op('openai'), undefined)).toBe('unverifiable');
    expect(index.verify(op('cohere'), '192.0.2.10')).toBe('unverifiable');
  });

  it('replaces an operator’s set whole, leaves other operators alone, and records when it was taken', async () => {
    const db = testDb();
    const first = await storeRangeSets(db, [
      { operator: op('replace'), creationTime: null, prefixes: ['198.51.100.0/24'], source: 'first' },
      { operator: op('kept'), creationTime: null, prefixes: ['203.0.113.0/24'], source: 'kept' },
    ]);
    const second = await storeRangeSets(db, [
      {
        operator: op('replace'),
        creationTime: new Date('2026-01-02T00:00:00Z'),
        prefixes: ['2001:db8::/32'],
        source: 'second',
      },
    ]);
    expect(second.getTime()).toBeGreaterThanOrEqual(first.getTime());
    const rows = await db.crawlerIpRangeSet.findMany({
      where: { operator: { in: [op('replace'), op('kept')] } },
      orderBy: { operator: 'asc' },
    });
    expect(rows).toEqual([
      { operator: op('kept'), creationTime: null, takenAt: first, source: 'kept', prefixes: ['203.0.113.0/24'] },
      {
        operator: op('replace'),
        creationTime: new Date('2026-01-02T00:00:00Z'),
        takenAt: second,
        source: 'second',
        prefixes: ['2001:db8::/32'],
      },
    ]);
    const { index } = await loadStoredRangeIndex(db);
    expect(index.verify(op('replace'), '198.51.100.1')).toBe('unverified');
    expect(index.verify(op('replace'), '2001:db8::1')).toBe('verified');
  });

  it('refuses a set with a bad prefix before writing anything', async () => {
    const db = testDb();
    await expect(
      storeRangeSets(db, [
        { operator: op('good'), creationTime: null, prefixes: ['192.0.2.0/24'], source: 'x' },
        { operator: op('bad'), creationTime: null, prefixes: ['192.0.2.0/99'], source: 'x' },
      ]),
    ).rejects.toThrow(/is not a CIDR/);
    expect(await db.crawlerIpRangeSet.count({ where: { operator: { in: [op('good'), op('bad')] } } })).toBe(0);
  });

  it('refuses an empty --from', async () => {
    await expect(refreshCrawlerRanges(ctx(), { from: '' })).rejects.toThrow(/--from/);
  });
});
