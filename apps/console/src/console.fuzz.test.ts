import {
  CONSOLE_ERROR_STATUS,
  type ConsoleEndpoint,
  consoleEndpoints,
  consoleErrorSchema,
} from '@vt/contracts/console';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp } from './testing/index.ts';

// Property-based: random and hostile bodies, content types, query strings, path ids, cookies,
// Origin and Authorization headers on every console API route, signed in as a team's owner and
// signed out. Whatever comes in, the answer is JSON (or an empty 204, or a CSV export's
// download), never HTML, never a 500, and an error is the console's envelope with the status its
// code maps to. `pnpm test:fuzz` runs more cases (FUZZ_RUNS).

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const h = createConsoleHarness();
let owner: SignedUp;
let teamId = '';
let propertyId = '';

beforeAll(async () => {
  owner = await h.signUp('fuzz-owner');
  ({ teamId } = await h.teamOf(owner));
  const created = await h.as(owner.token, teamId).post('/api/properties', {
    name: 'Fuzz',
    domain: 'fuzz.example',
    plan: 'growth',
  });
  propertyId = created.body.property.id;
});
afterAll(() => h.close());

const endpoints = Object.values(consoleEndpoints);
// Signing out would end the session the other cases run with; the signed-out case covers it.
const signedIn = endpoints.filter((e) => e.operationId !== 'signOut');

/** Hostile text: unicode, NULs, lone surrogates, huge numbers, SQL, HTML, path tricks. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '\u0000',
    '\ud800',
    '%00',
    '%E0%A4%A',
    '99999999999999999999999',
    '-1',
    'NaN',
    '../../etc/passwd',
    'x'.repeat(20_000),
  ),
);

const deepNesting = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A request body as bytes on the wire, with the content type it claims. */
const body = fc.oneof(
  fc.jsonValue().map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' })),
  fc
    .record({ email: hostileText, password: hostileText, name: hostileText, slug: hostileText, role: hostileText })
    .map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
  fc
    .constantFrom(
      '{"__proto__": {"isAdmin": true}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
      '{"name": "a", "name": "b"}',
      '{"name": ',
      'not json',
      '',
      deepNesting(5000),
      `{"name": "${'y'.repeat(200_000)}"}`,
    )
    .map((text) => ({ text, type: 'application/json' })),
  fc
    .tuple(hostileText, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''))
    .map(([text, type]) => ({ text, type })),
);

const pathId = fc.oneof(fc.uuid(), hostileText, fc.constant(''));

/** Percent-encodes text; a lone surrogate (which cannot be) goes as the invalid UTF-8 it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function concrete(path: string, id: () => string): string {
  return path.replace(/\{(\w+)\}/g, () => encode(id()) || 'x');
}

function expectDocumented(res: request.Response, endpoint: ConsoleEndpoint) {
  expect(res.status, res.text.slice(0, 300)).not.toBe(500);
  // The weekly report's preview answers an email's HTML as a JSON string: that field is the answer, not a page.
  const text =
    endpoint.operationId === 'previewWeeklyReport' && res.status === 200
      ? JSON.stringify({ ...res.body, html: '' })
      : res.text;
  expect(text).not.toMatch(/<html|<!doctype|\n\s+at .+:\d+:\d+/i);
  if (res.status === 204) return expect(res.text).toBe('');
  // A request head over 16 KiB (a 20 kB id or query) is refused by Node's parser, documented in
  // docs/operators.md's limits: 431 with no body.
  if (res.status === 431) return expect(res.text).toBe('');
  // The CSV exports answer a download: a UTF-8 CSV with its byte-order mark.
  if (endpoint.streams && res.status === 200) {
    expect(res.headers['content-type']).toBe(endpoint.streams);
    return expect(res.text.startsWith('\uFEFF')).toBe(true);
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (res.status < 400) return;
  const envelope = consoleErrorSchema.parse(res.body);
  expect(res.status).toBe(CONSOLE_ERROR_STATUS[envelope.error.code]);
}

describe('the console API under random and hostile requests', () => {
  it('answers every body and content type on every route, signed in, with JSON: a success or its documented error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...signedIn), pathId, body, async (endpoint, id, sent) => {
        const path = concrete(endpoint.path, () => id);
        let req = request(h.app)[endpoint.method](path).set('Authorization', `Bearer ${owner.token}`);
        req = req.set('X-Team-Id', teamId);
        if (sent.type) req = req.set('Content-Type', sent.type);
        const res = await req.send(sent.text);
        expectDocumented(res, endpoint);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers every query string on every GET route, with real and made-up ids, by its documented answers', async () => {
    const gets = signedIn.filter((e) => e.method === 'get');
    const query = fc
      .array(
        fc.tuple(fc.oneof(fc.constantFrom('from', 'to', 'limit', 'offset', 'slug', 'model'), hostileText), hostileText),
        {
          maxLength: 5,
        },
      )
      .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), fc.boolean(), pathId, query, async (endpoint, real, id, q) => {
        const path = concrete(endpoint.path, () => (real ? propertyId : id));
        const res = await request(h.app)
          .get(`${path}?${q}`)
          .set('Authorization', `Bearer ${owner.token}`)
          .set('X-Team-Id', teamId);
        expectDocumented(res, endpoint);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers every cookie, Authorization, Origin and X-Team-Id header set, signed out or forged, without serving data', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 120 }).filter((v) => /^[\x20-\x7e]*$/.test(v)),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        `Bearer ${'a'.repeat(4000)}`,
        'null',
        CONSOLE_ORIGIN,
        'https://evil.example',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.record({ cookie: header, authorization: header, origin: header, team: header }, { requiredKeys: [] }),
        async (endpoint, headers) => {
          const path = concrete(endpoint.path, () => propertyId);
          let req = request(h.app)[endpoint.method](path);
          if (headers.cookie !== undefined) req = req.set('Cookie', `vt_session=${headers.cookie}`);
          if (headers.authorization !== undefined) req = req.set('Authorization', headers.authorization);
          if (headers.origin !== undefined) req = req.set('Origin', headers.origin);
          if (headers.team !== undefined) req = req.set('X-Team-Id', headers.team);
          const res = await req.send();
          expectDocumented(res, endpoint);
          // Nobody is signed in: only the public operations may succeed, and not with our data.
          if (endpoint.access !== 'public') expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.text).not.toContain('fuzz.example');
          expect(res.text).not.toContain(owner.email);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
