import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_AGENT_CATALOGUE, createAgentMatcher, jwkThumbprint, nextCatalogueVersion } from '@vt/attribution';
import { loadCurrentCatalogue } from '@vt/catalogue-store';
import { opsConfigSchema, parseConfig } from '@vt/config';
import { formatUtcDay, utcDay } from '@vt/db';
import { scratchDatabase, testEnv, writeFixtureRanges } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpsError } from '../ops-error.ts';
import { refreshAgentCatalogue } from './agent-catalogue.ts';
import { refreshCrawlerRanges } from './crawler-ranges.ts';

// `ops crawlers refresh` and the AI agent catalogue: the community lists merged into the current
// version and stored as the next one. Catalogue versions are global to a database, so this file
// has a database of its own.

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let server: Server;
let base = '';
const served = new Map<string, { status: number; body: string }>();
const today = formatUtcDay(utcDay(new Date()));
// The versions the refreshes below store, after the bundled one (which may be dated today).
const first = nextCatalogueVersion(BUNDLED_AGENT_CATALOGUE.version, today);
const second = nextCatalogueVersion(first, today);
const ctx = () => ({ db: scratch.db, config: parseConfig('ops', opsConfigSchema, testEnv) });

beforeAll(async () => {
  scratch = await scratchDatabase('catalogue_ops');
  server = createServer((req, res) => {
    const answer = served.get(req.url ?? '') ?? { status: 404, body: 'not found' };
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await scratch?.drop();
});

/** A --from directory: the fixture IP ranges, and the given lists under catalogue/. */
function fromDir(lists: { robots?: unknown; crawlerUserAgents?: unknown }) {
  const dir = mkdtempSync(join(tmpdir(), 'vt-catalogue-'));
  const ranges = writeFixtureRanges();
  for (const name of readdirSync(ranges)) writeFileSync(join(dir, name), readFileSync(join(ranges, name)));
  mkdirSync(join(dir, 'catalogue'));
  if (lists.robots) writeFileSync(join(dir, 'catalogue', 'robots.json'), JSON.stringify(lists.robots));
  if (lists.crawlerUserAgents) {
    writeFileSync(join(dir, 'catalogue', 'crawler-user-agents.json'), JSON.stringify(lists.crawlerUserAgents));
  }
  return dir;
}

describe('ops crawlers refresh and the AI agent catalogue', () => {
  it('refuses --from DIR with the agent lists but no <operator>.json, having stored nothing (issue 33, finding 7)', async () => {
    const dir = fromDir({ robots: { 'Refused-Bot': { operator: 'Nobody', function: 'AI Assistants' } } });
    for (const name of readdirSync(dir)) if (name.endsWith('.json')) rmSync(join(dir, name));
    const before = await Promise.all([
      scratch.db.agentCatalogueVersion.findMany({ orderBy: { version: 'asc' } }),
      scratch.db.crawlerIpRangeSet.findMany({ orderBy: { operator: 'asc' } }),
      scratch.db.signatureKeyDirectory.findMany(),
    ]);
    await expect(refreshCrawlerRanges(ctx(), { from: dir })).rejects.toMatchObject({ code: 'invalid_argument' });
    const after = await Promise.all([
      scratch.db.agentCatalogueVersion.findMany({ orderBy: { version: 'asc' } }),
      scratch.db.crawlerIpRangeSet.findMany({ orderBy: { operator: 'asc' } }),
      scratch.db.signatureKeyDirectory.findMany(),
    ]);
    expect(after).toEqual(before);
  });

  it('merges the lists of --from DIR/catalogue into the next version, which becomes current; a rerun stores nothing', async () => {
    const robots = {
      GPTBot: { operator: 'OpenAI', function: 'AI Assistants' },
      'Freshly-User': { operator: '[Freshly](https://freshly.example)', function: 'AI Assistants' },
    };
    const crawlerUserAgents = [{ pattern: 'NewCrawlAIBot\\/', tags: ['ai-crawler'] }];
    const dir = fromDir({ robots, crawlerUserAgents });

    const result = await refreshCrawlerRanges(ctx(), { from: dir });
    expect(result.catalogue).toMatchObject({ version: first, stored: true });
    expect(result.catalogue.added.map((a) => [a.name, a.category])).toEqual([
      ['Freshly-User', 'ai-assistant'],
      ['NewCrawlAIBot', 'ai-training'],
    ]);
    const { catalogue } = await loadCurrentCatalogue(scratch.db);
    expect(catalogue.version).toBe(first);
    const matcher = createAgentMatcher(catalogue);
    expect(matcher.match('Mozilla/5.0 (compatible; Freshly-User/1.0)')).toMatchObject({ agent: 'Freshly-User' });
    // Ours kept its fields: GPTBot trains, whatever the list says.
    expect(matcher.match('GPTBot/1.1')).toMatchObject({ category: 'ai-training', operator: 'openai' });
    expect(catalogue.agents.length).toBe(BUNDLED_AGENT_CATALOGUE.agents.length + 2);

    const again = await refreshCrawlerRanges(ctx(), { from: dir });
    expect(again.catalogue).toMatchObject({ version: first, stored: false, added: [] });
    expect(await scratch.db.agentCatalogueVersion.count()).toBe(2); // the bundled one and the refresh
  });

  it('fetches the lists from the network, and names a list it could not read while merging the others', async () => {
    served.set('/robots.json', {
      status: 200,
      body: JSON.stringify({ NetFoundBot: { operator: 'Net', function: 'AI Search Crawlers' } }),
    });
    served.set('/cua.json', { status: 503, body: 'busy' });
    const result = await refreshAgentCatalogue(ctx(), {
      fetchImpl: fetch,
      urls: { robotsJson: `${base}/robots.json`, crawlerUserAgents: `${base}/cua.json` },
    });
    expect(result).toMatchObject({ version: second, stored: true, sources: [`${base}/robots.json`] });
    expect(result.added).toEqual([
      { name: 'NetFoundBot', operator: 'net', category: 'ai-search', source: 'ai.robots.txt' },
    ]);
    expect(result.failures).toEqual([{ source: `${base}/cua.json`, message: 'HTTP 503' }]);
  });

  it('stores the Web Bot Auth key directory of DIR/keys/<operator>.json under its Signature-Agent origin', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const jwk = publicKey.export({ format: 'jwk' });
    const dir = fromDir({});
    mkdirSync(join(dir, 'keys'));
    writeFileSync(join(dir, 'keys', 'openai.json'), JSON.stringify({ keys: [jwk] }));
    const result = await refreshCrawlerRanges(ctx(), { from: dir });
    expect(result.signatureKeys).toEqual([
      { origin: 'https://chatgpt.com', operator: 'openai', keys: 1, source: join(dir, 'keys', 'openai.json') },
    ]);
    const stored = await scratch.db.signatureKeyDirectory.findUniqueOrThrow({
      where: { origin: 'https://chatgpt.com' },
    });
    expect(stored.keys).toEqual([{ keyid: jwkThumbprint(jwk as never), jwk }]);

    // A directory without an Ed25519 key is refused, and the stored keys stay.
    writeFileSync(join(dir, 'keys', 'openai.json'), JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }] }));
    await expect(refreshCrawlerRanges(ctx(), { from: dir })).rejects.toMatchObject({ code: 'invalid_key_directory' });
    expect(
      (await scratch.db.signatureKeyDirectory.findUniqueOrThrow({ where: { origin: 'https://chatgpt.com' } })).keys,
    ).toEqual(stored.keys);
  });

  it('refuses --from DIR whose catalogue list does not parse, storing neither the ranges nor the other list (issue 33)', async () => {
    const dir = fromDir({ crawlerUserAgents: [{ pattern: 'UnstoredAIBot\\/', tags: ['ai-crawler'] }] });
    writeFileSync(join(dir, 'catalogue', 'robots.json'), '{ not json');
    const ranges = await scratch.db.crawlerIpRangeSet.findMany({ orderBy: { operator: 'asc' } });
    const error = await refreshCrawlerRanges(ctx(), { from: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpsError);
    expect(error).toMatchObject({ code: 'invalid_catalogue_file' });
    expect((error as Error).message).toMatch(/robots\.json/);
    expect(await scratch.db.crawlerIpRangeSet.findMany({ orderBy: { operator: 'asc' } })).toEqual(ranges);
    expect((await loadCurrentCatalogue(scratch.db)).catalogue.version).toBe(second);
  });

  it('fetching, stores the IP ranges and still fails naming the list that failed', async () => {
    served.set('/ranges/openai.json', {
      status: 200,
      body: JSON.stringify({ creationTime: '2026-01-01T00:00:00Z', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] }),
    });
    const error = await refreshCrawlerRanges(
      ctx(),
      {},
      {
        fetchImpl: fetch,
        sources: { openai: [`${base}/ranges/openai.json`] },
        catalogueUrls: { robotsJson: `${base}/missing-robots.json` },
        keyCatalogue: { ...BUNDLED_AGENT_CATALOGUE, operators: {} },
      },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'catalogue_fetch_failed' });
    expect((error as Error).message).toMatch(/missing-robots\.json: HTTP 404/);
    const stored = await scratch.db.crawlerIpRangeSet.findUniqueOrThrow({ where: { operator: 'openai' } });
    expect(stored.prefixes).toEqual(['192.0.2.0/24']);
  });
});
