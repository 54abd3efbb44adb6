import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESSION_THRESHOLD_BYTES } from '@vt/service-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The console's /api answers over real HTTP (a listening server, raw bytes read off the socket,
// nothing decoded for us): JSON of 1 KB or more goes in br or gzip to a client that asks, with
// Vary: Accept-Encoding; a smaller answer, or one to a client that does not ask, goes as it is;
// and a CSV export is never compressed, whatever the client accepts (its rows are sent as they
// are read, and a compressor would hold them back).

const TODAY = new Date('2026-04-20T15:00:00Z');
const h = createConsoleHarness({ now: TODAY });
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(h.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  body: Buffer;
}

function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function team() {
  const owner = await h.signUp('owner');
  const { teamId } = await h.teamOf(owner);
  const auth = (person: SignedUp) => ({ authorization: `Bearer ${person.token}`, 'x-team-id': teamId });
  return { owner, teamId, auth };
}

describe('compression of console answers', () => {
  it('sends JSON of 1 KB or more in br or gzip, as the client asks, and the same JSON decoded', async () => {
    const t = await team();
    for (let i = 0; i < 12; i++) {
      await h.db.apiKey.create({
        data: { teamId: t.teamId, name: `deploy key ${i}`, keyHash: `hash-${t.teamId}-${i}`, prefix: 'vt_live_x' },
      });
    }
    const plain = await rawGet('/api/keys', { ...t.auth(t.owner), 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESSION_THRESHOLD_BYTES);
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json.keys).toHaveLength(12);

    const br = await rawGet('/api/keys', { ...t.auth(t.owner), 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);

    const gzip = await rawGet('/api/keys', { ...t.auth(t.owner), 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(json);

    // No Accept-Encoding at all: as it is.
    const none = await rawGet('/api/keys', t.auth(t.owner));
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.body.toString('utf8'))).toEqual(json);
  });

  it('sends JSON under 1 KB as it is, even to a client that accepts br and gzip', async () => {
    const t = await team();
    const small = await rawGet('/api/keys', { ...t.auth(t.owner), 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ keys: [], has_more: false });
  });

  it('never compresses a CSV export, however large, whatever the client accepts', async () => {
    const t = await team();
    const created = await h.db.property.create({
      data: { teamId: t.teamId, name: 'Acme', domain: 'acme.example', plan: 'growth', brandTerms: ['Acme'] },
    });
    // Leads enough for a CSV well over the threshold.
    await h.db.lead.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({
        propertyId: created.id,
        eventId: `evt-${i}`,
        receivedAt: new Date(`2026-04-10T10:00:${String(i).padStart(2, '0')}.000Z`),
        day: new Date('2026-04-10T00:00:00Z'),
        matched: false,
        contact: `Person ${i}`,
        email: `person-${i}@example.com`,
        landingPath: '/pricing',
      })),
    });
    const path = `/api/properties/${created.id}/exports/leads?from=2026-03-22&to=2026-04-20`;
    const csv = await rawGet(path, { ...t.auth(t.owner), 'accept-encoding': 'br, gzip, deflate' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-encoding']).toBeUndefined();
    // Large enough that size is not why it went as it is.
    expect(csv.body.length).toBeGreaterThanOrEqual(COMPRESSION_THRESHOLD_BYTES);
    expect(csv.body.toString('utf8')).toMatch(/^\uFEFF/);
  });
});
