import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, createConsoleHarness, TEST_PASSWORD } from '../testing/index.ts';

// The sign-in failure limit: per email and per client, counted in Redis so every console replica
// shares it. Over a limit, sign-in answers 429 with Retry-After whether the password is right or
// not, and an unknown email is limited exactly like a known one. Each test uses client addresses
// of its own (X-Forwarded-For: the harness trusts its loopback proxy); the one about supertest's
// own address gets a harness of its own.

const LIMITS = { failuresPerEmail: 3, failuresPerClient: 5 };
const WINDOW_SECONDS = 900; // the harness's window
const WRONG = 'not the password';

const harnesses: ConsoleHarness[] = [];
function harness(options: Parameters<typeof createConsoleHarness>[0] = {}) {
  const made = createConsoleHarness({ signInLimits: LIMITS, ...options });
  harnesses.push(made);
  return made;
}
afterAll(() => Promise.all(harnesses.map((x) => x.close())));

const h = harness();

/** A documentation address (TEST-NET) nobody else in this file uses. */
let nextHost = 1;
const newClient = () => `198.51.100.${nextHost++}`;
const ghostEmail = () => `ghost-${randomBytes(4).toString('hex')}@example.test`;

/** A sign-in; from `client` through the trusted proxy, or from supertest's own address when none. */
function signIn(app: ConsoleHarness, email: string, password: string, client?: string) {
  const test = request(app.app).post('/api/auth/sign-in');
  if (client) test.set('X-Forwarded-For', client);
  return test.send({ email, password });
}

/** `n` wrong passwords for `email`, each from a client of its own, each answered 401. */
async function fail(app: ConsoleHarness, email: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await signIn(app, email, WRONG, newClient());
    expect(res.status, `failure ${i + 1}`).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
  }
}

function expectLimited(res: request.Response) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.headers['set-cookie']).toBeUndefined();
}

/** An answer with its numbers (seconds to wait) taken out, to compare two of them. */
const shape = (res: request.Response) => ({
  status: res.status,
  code: res.body.error?.code,
  message: String(res.body.error?.message).replace(/\d+/g, 'N'),
});

describe('per email', () => {
  it('after 3 failures for one email, the 4th attempt is 429 with Retry-After even with the right password', async () => {
    const person = await h.signUp('limited');
    await fail(h, person.email, 3);
    const right = await signIn(h, person.email, TEST_PASSWORD, newClient());
    expectLimited(right);
    expectLimited(await signIn(h, person.email, WRONG, newClient()));
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(1); // sign-up's only
  });

  it('counts the email whatever its case', async () => {
    const person = await h.signUp('cased');
    await fail(h, person.email.toUpperCase(), 2);
    await fail(h, person.email, 1);
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, newClient()));
  });

  it('limits an unknown email the same way, with the same answers as a known one', async () => {
    const person = await h.signUp('known');
    const ghost = ghostEmail();
    for (let i = 0; i < 3; i++) {
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

  it('a success before the limit clears the email’s failures', async () => {
    const person = await h.signUp('cleared');
    await fail(h, person.email, 2);
    expect((await signIn(h, person.email, TEST_PASSWORD, newClient())).status).toBe(200);
    await fail(h, person.email, 2); // 4 failures in all, but only 2 since the success
    expect((await signIn(h, person.email, TEST_PASSWORD, newClient())).status).toBe(200);
    await fail(h, person.email, 3);
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, newClient()));
  });
});

describe('per client', () => {
  it('trips across different emails from one client (supertest’s own address)', async () => {
    const own = harness(); // supertest's address has counted nothing here yet
    const victim = await own.signUp('sprayed');
    for (let i = 0; i < 5; i++) {
      const res = await signIn(own, ghostEmail(), WRONG);
      expect(res.status, `guess ${i + 1}`).toBe(401);
    }
    expectLimited(await signIn(own, victim.email, TEST_PASSWORD));
    expectLimited(await signIn(own, ghostEmail(), WRONG));
    // The victim's email counted nothing: from another client it signs in.
    expect((await signIn(own, victim.email, TEST_PASSWORD, newClient())).status).toBe(200);
  });

  it('leaves a different email from a different client unaffected', async () => {
    const blocked = await h.signUp('blocked');
    const bystander = await h.signUp('bystander');
    const sprayer = newClient();
    for (let i = 0; i < 5; i++) expect((await signIn(h, ghostEmail(), WRONG, sprayer)).status).toBe(401);
    await fail(h, blocked.email, 3);
    expectLimited(await signIn(h, blocked.email, TEST_PASSWORD, newClient()));
    expectLimited(await signIn(h, bystander.email, TEST_PASSWORD, sprayer));

    const elsewhere = newClient();
    const wrong = await signIn(h, bystander.email, WRONG, elsewhere);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect((await signIn(h, bystander.email, TEST_PASSWORD, elsewhere)).status).toBe(200);
  });
});

describe('across replicas', () => {
  it('two console replicas on one Redis prefix share the count', async () => {
    const replica = harness({ prefix: h.prefix });
    const person = await h.signUp('shared');
    expect((await signIn(h, person.email, WRONG, newClient())).status).toBe(401);
    expect((await signIn(replica, person.email, WRONG, newClient())).status).toBe(401);
    expect((await signIn(h, person.email, WRONG, newClient())).status).toBe(401);
    expectLimited(await signIn(replica, person.email, TEST_PASSWORD, newClient()));
    expectLimited(await signIn(h, person.email, TEST_PASSWORD, newClient()));

    // A console on a Redis prefix of its own has counted none of it.
    const separate = harness();
    expect((await signIn(separate, person.email, TEST_PASSWORD, newClient())).status).toBe(200);
  });

  it('keeps the counters in Redis under the prefix, keyed by a hash: no email or address in the keys', async () => {
    const person = await h.signUp('keys');
    const client = newClient();
    expect((await signIn(h, person.email, WRONG, client)).status).toBe(401);
    const keys = await h.redis.keys(`${h.prefix.slice(0, -1)}*`); // `{prefix:<digest>}:…` too
    expect(keys.some((k) => k.includes('sign-in-email'))).toBe(true);
    expect(keys.some((k) => k.includes('sign-in-client'))).toBe(true);
    for (const key of keys) {
      expect(key).not.toContain(person.email);
      expect(key).not.toContain(client);
    }
  });
});
