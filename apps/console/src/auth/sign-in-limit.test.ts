import { randomBytes } from 'node:crypto';
import { upsertUser } from '@vt/accounts';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, createConsoleHarness, TEST_PASSWORD } from '../testing/index.ts';
import { createSignInLimiter, type SignInAttempt } from './sign-in-limiter.ts';

// Sign-in throttling (issue 33 finding 2): per email and address a backoff that doubles, per
// address a window over all emails (sign-up's EMAIL_TAKEN included), per account a ceiling over
// all addresses that a known device (the `vt_device` cookie of an earlier sign-in) and a password
// reset get through. Counted in Redis, so replicas share them. Each test names its clients by
// X-Forwarded-For (the harness trusts its loopback proxy) from addresses of its own.

const LIMITS = { freeFailures: 3, maxBackoffSeconds: 900, failuresPerEmail: 8, failuresPerClient: 12 };
const WRONG = 'not the password';

const harnesses: ConsoleHarness[] = [];
function harness(options: Parameters<typeof createConsoleHarness>[0] = {}) {
  const made = createConsoleHarness({ signInLimits: LIMITS, ...options });
  harnesses.push(made);
  return made;
}
afterAll(() => Promise.all(harnesses.map((x) => x.close())));

const h = harness();

let nextHost = 1;
/** A documentation address (TEST-NET) nobody else in this file uses. */
const newClient = () => `198.51.100.${nextHost++}`;
const ghostEmail = () => `ghost-${randomBytes(4).toString('hex')}@example.test`;

function signIn(app: ConsoleHarness, email: string, password: string, client: string, cookie?: string) {
  const test = request(app.app).post('/api/auth/sign-in').set('X-Forwarded-For', client);
  if (cookie) test.set('Cookie', cookie);
  return test.send({ email, password });
}

/** The `vt_device=…` pair a sign-in answer set. */
function deviceCookieOf(res: request.Response): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = (raw ?? []).find((c) => c.startsWith('vt_device='));
  if (!cookie) throw new Error('no vt_device cookie');
  return cookie.split(';')[0] ?? '';
}

/** `n` wrong passwords for `email`, each from an address of its own, each answered 401. */
async function failFromMany(app: ConsoleHarness, email: string, n: number) {
  for (let i = 0; i < n; i++)
    expect((await signIn(app, email, WRONG, newClient())).status, `failure ${i + 1}`).toBe(401);
}

function expectLimited(res: request.Response, maxSeconds = 900) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers['set-cookie']).toBeUndefined();
}

const shape = (res: request.Response) => ({
  status: res.status,
  code: res.body.error?.code,
  message: String(res.body.error?.message).replace(/\d+/g, 'N'),
});

describe('per email and address: a backoff, not a lockout', () => {
  it('[issue 33 finding 2] failures from one address slow that address; the owner elsewhere signs in', async () => {
    const person = await h.signUp('victim');
    const attacker = newClient();
    for (let i = 0; i < 4; i++) expect((await signIn(h, person.email, WRONG, attacker)).status).toBe(401);
    // The 4th failure (one past the 3 free) costs a wait before the 5th guess, right password or not.
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, attacker), 1);
    expect((await signIn(h, person.email, TEST_PASSWORD, newClient())).status).toBe(200);
  });

  it('each failure past the free ones doubles the wait, up to the cap (the limiter, on a clock of its own)', async () => {
    let clock = Date.parse('2026-11-01T00:00:00Z');
    const limiter = createSignInLimiter({
      redis: h.redis,
      keyPrefix: h.prefix,
      ...LIMITS,
      maxBackoffSeconds: 20,
      failuresPerEmail: 1000, // the ceiling out of the way: only the pair's backoff here
      windowSeconds: 900,
      now: () => clock,
    });
    const attempt: SignInAttempt = { email: ghostEmail(), client: newClient(), passwordVersion: '' };
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      await limiter.recordFailure(attempt);
      waits.push(await limiter.blockedFor(attempt));
      clock += waits.at(-1)! * 1000; // the attacker waits exactly as told
    }
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 20]);
    await limiter.recordSuccess(attempt);
    expect(await limiter.blockedFor(attempt)).toBe(0);
  });

  it('counts the email whatever its case', async () => {
    const person = await h.signUp('cased');
    const client = newClient();
    for (const email of [person.email.toUpperCase(), person.email, person.email.toUpperCase(), person.email]) {
      expect((await signIn(h, email, WRONG, client)).status).toBe(401);
    }
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, client), 1);
  });
});

describe('per account: a ceiling over all addresses that known devices and a reset get through', () => {
  it('[issue 33 finding 2] past the ceiling a new browser waits, the owner’s known browser signs in', async () => {
    const person = await h.signUp('ceiling');
    const home = newClient();
    const first = await signIn(h, person.email, TEST_PASSWORD, home);
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    await failFromMany(h, person.email, 8);
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, newClient()));
    // Known device, from the home address or from anywhere: through.
    expect((await signIn(h, person.email, TEST_PASSWORD, home, device)).status).toBe(200);
    expect((await signIn(h, person.email, TEST_PASSWORD, newClient(), device)).status).toBe(200);
  });

  it('a device cookie opens only the account it signed in to, and a made-up one opens nothing', async () => {
    const owner = await h.signUp('device-owner');
    const target = await h.signUp('device-target');
    const device = deviceCookieOf(await signIn(h, owner.email, TEST_PASSWORD, newClient()));
    await failFromMany(h, target.email, 8);
    expectLimited(await signIn(h, target.email, TEST_PASSWORD, newClient(), device));
    const forged = `vt_device=vtd_${randomBytes(32).toString('base64url')}`;
    expectLimited(await signIn(h, target.email, TEST_PASSWORD, newClient(), forged));
  });

  it('an operator’s password reset lifts the ceiling at once', async () => {
    const person = await h.signUp('reset');
    await failFromMany(h, person.email, 8);
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, newClient()));
    await upsertUser(h.db, { email: person.email, name: 'reset', password: 'a fresh long passphrase' });
    expect((await signIn(h, person.email, 'a fresh long passphrase', newClient())).status).toBe(200);
  });

  it('limits an unknown email the same way, with the same answers as a known one', async () => {
    const person = await h.signUp('known');
    const ghost = ghostEmail();
    for (let i = 0; i < 8; i++) {
      const known = await signIn(h, person.email, WRONG, newClient());
      const unknown = await signIn(h, ghost, WRONG, newClient());
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual(known.body);
    }
    const known = await signIn(h, person.email, TEST_PASSWORD, newClient());
    const unknown = await signIn(h, ghost, TEST_PASSWORD, newClient());
    expectLimited(known);
    expectLimited(unknown);
    expect(shape(unknown)).toEqual(shape(known));
  });
});

describe('per address, over all emails: sign-in and sign-up alike', () => {
  it('trips across different emails from one address; the victim signs in from elsewhere', async () => {
    const victim = await h.signUp('sprayed');
    const sprayer = newClient();
    for (let i = 0; i < 12; i++) expect((await signIn(h, ghostEmail(), WRONG, sprayer)).status).toBe(401);
    expectLimited(await signIn(h, victim.email, TEST_PASSWORD, sprayer));
    expect((await signIn(h, victim.email, TEST_PASSWORD, newClient())).status).toBe(200);
  });

  it('[issue 33 finding 3] sign-up’s EMAIL_TAKEN counts: probing addresses by sign-up stops like guessing', async () => {
    const taken = await Promise.all([0, 1, 2].map((i) => h.signUp(`taken${i}`)));
    const prober = newClient();
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request(h.app)
        .post('/api/auth/sign-up')
        .set('X-Forwarded-For', prober)
        .send({ email: taken[i % 3]?.email, password: 'plum tractor 94 lantern', name: 'P' });
      answers.push(res.status);
    }
    expect(answers.slice(0, 12)).toEqual(Array(12).fill(409));
    expect(answers.slice(12)).toEqual(Array(8).fill(429));
    // Sign-in from that address is over its limit too; a new address signs up as usual.
    expectLimited(await signIn(h, taken[0]?.email ?? '', TEST_PASSWORD, prober));
    const fresh = await request(h.app)
      .post('/api/auth/sign-up')
      .set('X-Forwarded-For', newClient())
      .send({ email: ghostEmail(), password: 'plum tractor 94 lantern', name: 'P' });
    expect(fresh.status).toBe(201);
  });
});

describe('across replicas', () => {
  it('two console replicas on one Redis prefix share the counts', async () => {
    const replica = harness({ prefix: h.prefix });
    const person = await h.signUp('shared');
    const client = newClient();
    expect((await signIn(h, person.email, WRONG, client)).status).toBe(401);
    expect((await signIn(replica, person.email, WRONG, client)).status).toBe(401);
    expect((await signIn(h, person.email, WRONG, client)).status).toBe(401);
    expect((await signIn(replica, person.email, WRONG, client)).status).toBe(401);
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, client), 1);
    expectLimited(await signIn(replica, person.email, TEST_PASSWORD, client), 1);
    // A console on a Redis prefix of its own has counted none of it.
    expect((await signIn(harness(), person.email, TEST_PASSWORD, client)).status).toBe(200);
  });

  it('keeps the counters in Redis under the prefix, keyed by a hash: no email, address or device in the keys', async () => {
    const person = await h.signUp('keys');
    const client = newClient();
    expect((await signIn(h, person.email, WRONG, client)).status).toBe(401);
    const device = deviceCookieOf(await signIn(h, person.email, TEST_PASSWORD, client));
    const keys = await h.redis.keys(`${h.prefix.slice(0, -1)}*`);
    for (const kind of ['sign-in-pair', 'sign-in-client', 'sign-in-account', 'known-device']) {
      expect(
        keys.some((k) => k.includes(kind)),
        kind,
      ).toBe(true);
    }
    for (const key of keys) {
      expect(key).not.toContain(person.email);
      expect(key).not.toContain(client);
      expect(key).not.toContain(device.slice('vt_device='.length));
    }
  });
});
