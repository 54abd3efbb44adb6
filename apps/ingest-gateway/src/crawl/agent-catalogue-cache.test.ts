import { generateKeyPairSync } from 'node:crypto';
import { BUNDLED_AGENT_CATALOGUE, parseKeyDirectory } from '@vt/attribution';
import { storeCatalogue } from '@vt/catalogue-store';
import { createLogger } from '@vt/logger';
import { scratchDatabase } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { loadAgentCatalogueCache } from './agent-catalogue-cache.ts';
import { BatchClassifier } from './batch-classifier.ts';
import { loadSignatureKeysCache } from './signature-keys-cache.ts';

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
      classifier.line(line('Mozilla/5.0 (compatible; NotReplicaTestBot/1.0)'));
      const summary = classifier.summary();
      expect(summary.received).toBe(2);
      expect(summary.events.map((e) => e.crawler)).toEqual(['ReplicaTestBot']);
    } finally {
      cache.stop();
    }
  });
});

describe('the gateway’s Web Bot Auth keys', () => {
  it('verifies against the key directories stored in Postgres, picked up on the next reload', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const signer = await Ed25519Signer.fromJWK(privateKey.export({ format: 'jwk' }));
    const now = new Date();
    const signatureAgent = '"https://chatgpt.com"';
    const headers = await signatureHeaders(
      { method: 'GET', url: 'https://shop.example/', headers: { 'signature-agent': signatureAgent } },
      signer,
      { created: now, expires: new Date(now.getTime() + 60_000) },
    );
    const signed = {
      host: 'shop.example',
      path: '/',
      occurredAt: now.toISOString(),
      signed: { signature: headers.Signature, signatureInput: headers['Signature-Input'], signatureAgent },
    };
    const cache = await loadSignatureKeysCache(scratch.db, logger, 50);
    try {
      expect(await cache.current().verify(signed)).toBe('unverified'); // nothing stored yet
      const keys = parseKeyDirectory({ keys: [publicKey.export({ format: 'jwk' })] });
      await scratch.db.signatureKeyDirectory.create({
        data: {
          origin: 'https://chatgpt.com',
          operator: 'openai',
          keys: keys as never,
          source: 'test',
          takenAt: new Date(),
        },
      });
      await expect.poll(() => cache.current().verify(signed), { timeout: 5000 }).toBe('verified');
    } finally {
      cache.stop();
    }
  });
});
