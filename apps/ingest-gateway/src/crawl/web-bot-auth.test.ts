import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { jwkThumbprint, parseKeyDirectory } from '@vt/attribution';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { createGatewayHarness } from '../testing/gateway-harness.ts';
import { createSignatureVerifier } from './signature-verifier.ts';

// Web Bot Auth: an agent browsing with a stock browser user agent (ChatGPT agent) is recognised
// by its Signature-Agent and verified against the key directory stored for it. Requests are
// signed here with Cloudflare's own implementation (the web-bot-auth package) and keys these
// tests generate; our verification is http-message-sig's signature base and node:crypto's Ed25519.

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHATGPT = '"https://chatgpt.com"';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicJwk: publicKey.export({ format: 'jwk' }) as { kty: 'OKP'; crv: 'Ed25519'; x: string },
    privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey,
  };
}
const openai = keyPair();
const stranger = keyPair();
const directory = parseKeyDirectory({ keys: [openai.publicJwk, { kty: 'RSA', n: 'x', e: 'AQAB' }] });

const h = await createGatewayHarness({
  crawl: { signatureVerifier: () => createSignatureVerifier([{ origin: 'https://chatgpt.com', keys: directory }]) },
});
afterAll(() => h.close());

/** One logged request to shop.example, signed by `jwk` as `signatureAgent` for the given lifetime. */
async function signedLine(options: {
  jwk: JsonWebKey;
  signatureAgent?: string;
  createdAgoMs?: number;
  lifetimeMs?: number;
  tamper?: boolean;
}) {
  const at = new Date();
  const signatureAgent = options.signatureAgent ?? CHATGPT;
  const signer = await Ed25519Signer.fromJWK(options.jwk);
  const created = new Date(at.getTime() - (options.createdAgoMs ?? 0));
  const headers = await signatureHeaders(
    { method: 'GET', url: 'https://shop.example/pricing', headers: { 'signature-agent': signatureAgent } },
    signer,
    { created, expires: new Date(created.getTime() + (options.lifetimeMs ?? 60_000)) },
  );
  const signature = options.tamper
    ? headers.Signature.replace(/:(.)/, (_, c) => `:${c === 'A' ? 'B' : 'A'}`)
    : headers.Signature;
  return JSON.stringify({
    timestamp: at.toISOString(),
    host: 'shop.example',
    path: '/pricing',
    method: 'GET',
    userAgent: CHROME,
    statusCode: 200,
    signature,
    signatureInput: headers['Signature-Input'],
    signatureAgent,
  });
}

async function keptEvents(lines: string[]) {
  const { property, token } = await h.createProperty({ domain: 'shop.example' });
  const res = await request(h.app)
    .post(`/api/ingest/crawl/${property.id}`)
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/x-ndjson')
    .send(`${lines.join('\n')}\n`);
  expect(res.status).toBe(202);
  const jobs = (await h.jobs()).filter((j) => j.propertyId === property.id);
  return { answer: res.body, events: jobs.flatMap((j) => j.events) };
}

describe('Web Bot Auth', () => {
  it('names a key by its RFC 7638 thumbprint, as the signer does, and keeps only Ed25519 keys', async () => {
    const signer = await Ed25519Signer.fromJWK(openai.privateJwk);
    expect(directory).toEqual([{ keyid: signer.keyid, jwk: openai.publicJwk }]);
    expect(jwkThumbprint(openai.publicJwk)).toBe(signer.keyid);
    expect(() => parseKeyDirectory({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }] })).toThrow(/no Ed25519 key/);
  });

  it('[CRAWL-14] counts a request signed with a key of the directory as its agent, verified, whatever its user agent, and stores no header', async () => {
    const { answer, events } = await keptEvents([await signedLine({ jwk: openai.privateJwk })]);
    expect(answer).toMatchObject({ received: 1, kept: 1 });
    expect(events).toEqual([
      expect.objectContaining({
        crawler: 'ChatGPT Agent',
        operator: 'openai',
        verification: 'verified',
        userAgent: CHROME,
      }),
    ]);
    // The signature headers decide the verification and go no further.
    for (const field of ['signature', 'signatureInput', 'signatureAgent', 'signed']) {
      expect(events[0], field).not.toHaveProperty(field);
    }
  });

  it('keeps an invalid, expired or unknown-key signature as the agent it claims, not verified', async () => {
    const { events } = await keptEvents([
      await signedLine({ jwk: openai.privateJwk, tamper: true }),
      await signedLine({ jwk: openai.privateJwk, createdAgoMs: 120_000, lifetimeMs: 60_000 }),
      await signedLine({ jwk: stranger.privateJwk }),
    ]);
    expect(events.map((e) => [e.crawler, e.verification])).toEqual([
      ['ChatGPT Agent', 'unverified'],
      ['ChatGPT Agent', 'unverified'],
      ['ChatGPT Agent', 'unverified'],
    ]);
  });

  it('drops a browser request signed for an agent the catalogue does not know, and one whose headers are incomplete', async () => {
    const unknownAgent = await signedLine({
      jwk: openai.privateJwk,
      signatureAgent: '"https://unknown-agent.example"',
    });
    const incomplete = JSON.stringify({ ...JSON.parse(await signedLine({ jwk: openai.privateJwk })), signature: 42 });
    const { answer, events } = await keptEvents([unknownAgent, incomplete]);
    expect(answer).toMatchObject({ received: 2, kept: 0 });
    expect(events).toEqual([]);
  });
});
