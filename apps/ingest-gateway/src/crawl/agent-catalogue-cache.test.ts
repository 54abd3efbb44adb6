import { BUNDLED_AGENT_CATALOGUE } from '@vt/attribution';
import { storeCatalogue } from '@vt/catalogue-store';
import { createLogger } from '@vt/logger';
import { scratchDatabase } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentCatalogueCache } from './agent-catalogue-cache.ts';
import { BatchClassifier } from './batch-classifier.ts';

// Every gateway replica matches with the catalogue version Postgres holds: the release's bundled
// one is stored at start, and a higher version a refresh stored is picked up on the next reload.
// Catalogue versions are global to a database, so this file has a database of its own.

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
const logger = createLogger({ name: 'test', level: 'silent' });
const unverified = { verify: () => 'unverifiable' as const };
const line = (userAgent: string) =>
  JSON.stringify({ timestamp: '2026-11-23T10:00:00Z', host: 'shop.example', path: '/', userAgent, statusCode: 200 });

beforeAll(async () => {
  scratch = await scratchDatabase('catalogue_gateway');
}, 60_000);
afterAll(async () => {
  await scratch?.drop();
});

describe('the gateway’s AI agent catalogue', () => {
  it('stores the bundled version at start, then matches with a higher stored version once reloaded', async () => {
    const cache = await loadAgentCatalogueCache(scratch.db, logger, 50);
    try {
      const stored = await scratch.db.agentCatalogueVersion.findMany();
      expect(stored.map((v) => [v.version, v.source])).toEqual([[BUNDLED_AGENT_CATALOGUE.version, 'bundled']]);
      expect(cache.current().version).toBe(BUNDLED_AGENT_CATALOGUE.version);
      expect(cache.current().match('ReplicaTestBot/1.0')).toBeNull();

      const next = {
        ...BUNDLED_AGENT_CATALOGUE,
        version: '2999-01-01.1',
        operators: { ...BUNDLED_AGENT_CATALOGUE.operators, replica: {} },
        agents: [
          ...BUNDLED_AGENT_CATALOGUE.agents,
          { name: 'ReplicaTestBot', operator: 'replica', category: 'ai-search' as const },
        ],
      };
      await storeCatalogue(scratch.db, next, 'test');
      await expect.poll(() => cache.current().version, { timeout: 5000 }).toBe('2999-01-01.1');
      expect(cache.current().match('ReplicaTestBot/1.0')).toEqual({
        agent: 'ReplicaTestBot',
        operator: 'replica',
        category: 'ai-search',
      });

      // A batch classified with it keeps the new agent's line, and still drops a look-alike.
      const classifier = new BatchClassifier('shop.example', unverified, cache.current());
      classifier.line(line('Mozilla/5.0 (compatible; ReplicaTestBot/1.0)'));
      classifier.line(line('Mozilla/5.0 (compatible; ReplicaTestBot-evil/1.0)'));
      const summary = classifier.summary();
      expect(summary.received).toBe(2);
      expect(summary.events.map((e) => e.crawler)).toEqual(['ReplicaTestBot']);
    } finally {
      cache.stop();
    }
  });
});
