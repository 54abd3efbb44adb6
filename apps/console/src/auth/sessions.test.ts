import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, TEST_PASSWORD } from '../testing/index.ts';

// Accounts and sessions through real HTTP and Postgres: sign-up and its refusals, what is stored
// of a password and a session token, sign-in (one answer for an unknown email and a wrong
// password), the session as bearer and as cookie, sign-out, expiry, every way a request can fail
// to authenticate, and GET /api/me.

const h = createConsoleHarness();
afterAll(() => h.close());

const CHALLENGE = 'Bearer realm="console"';
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;

const signUp = (body: object) => request(h.app).post('/api/auth/sign-up').send(body);
const signIn = (email: string, password: string) => request(h.app).post('/api/auth/sign-in').send({ email, password });
const meByCookie = (cookie: string) => request(h.app).get('/api/me').set('Cookie', cookie);

/** The one `vt_session` Set-Cookie header of an answer (`__Host-vt_session` when `tls`). */
function sessionCookieOf(res: request.Response, tls = false): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookies = (raw ?? []).filter((c) => c.startsWith(tls ? '__Host-vt_session=' : 'vt_session='));
  expect(cookies).toHaveLength(1);
  return cookies[0] as string;
}

/** Every 401 names the scheme a client should use. */
function expectUnauthenticated(res: request.Response, code = 'UNAUTHENTICATED') {
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  expect(res.body.error.code).toBe(code);
}

/** Whole rows of a table as JSON text, every column included (not only those Prisma maps). */
async function rowsAsText(table: 'users' | 'sessions', column: 'id' | 'user_id', id: string): Promise<string[]> {
  const rows = await h.db.$queryRawUnsafe<{ row: string }[]>(
    `SELECT row_to_json(t)::text AS row FROM ${table} t WHERE ${column} = $1::uuid`,
    id,
  );
  return rows.map((r) => r.row);
}

describe('POST /api/auth/sign-up', () => {
  it('creates the account and a session: 201 with the user, the token and its expiry', async () => {
    const email = uniqueEmail('ada');
    const res = await signUp({ email, password: TEST_PASSWORD, name: 'Ada' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.any(String), email, name: 'Ada' },
      token: expect.any(String),
      expiresAt: expect.any(String),
    });
    const expiresIn = Date.parse(res.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000); // the harness's one-hour sessions
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    expect((await h.as(res.body.token).get('/api/me')).body.user).toEqual(res.body.user);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, and not Secure over plain http', async () => {
    const res = await signUp({ email: uniqueEmail('cookie'), password: TEST_PASSWORD, name: 'C' });
    const cookie = sessionCookieOf(res);
    expect(cookie.startsWith(`vt_session=${res.body.token};`)).toBe(true);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Secure/i);
    expect(Date.parse(/; Expires=([^;]+)/.exec(cookie)?.[1] ?? '')).toBe(
      Math.floor(Date.parse(res.body.expiresAt) / 1000) * 1000,
    );
  });

  it('[issue 33 finding 6] over https (through the trusted proxy) the cookie is `__Host-vt_session`, Secure, Path=/, no Domain; only that name is read there', async () => {
    const res = await request(h.app)
      .post('/api/auth/sign-up')
      .set('X-Forwarded-Proto', 'https')
      .send({ email: uniqueEmail('tls'), password: TEST_PASSWORD, name: 'T' });
    expect(res.status).toBe(201);
    const cookie = sessionCookieOf(res, true);
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
    const overTls = (name: string) =>
      request(h.app).get('/api/me').set('X-Forwarded-Proto', 'https').set('Cookie', `${name}=${res.body.token}`);
    expect((await overTls('__Host-vt_session')).status).toBe(200);
    // A plain-named cookie over TLS could have been planted by a sibling subdomain: ignored.
    expect((await overTls('vt_session')).status).toBe(401);
  });

  it('refuses an email that is taken, whatever its case: 409 EMAIL_TAKEN, and no second account', async () => {
    const local = `Grace-${randomBytes(4).toString('hex')}`;
    const first = await signUp({ email: `${local}@Example.TEST`, password: TEST_PASSWORD, name: 'Grace' });
    expect(first.status).toBe(201);
    expect(first.body.user.email).toBe(`${local.toLowerCase()}@example.test`);
    const again = await signUp({ email: `${local.toUpperCase()}@example.test`, password: TEST_PASSWORD, name: 'G2' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EMAIL_TAKEN');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(await h.db.user.count({ where: { email: { equals: `${local}@example.test`, mode: 'insensitive' } } })).toBe(
      1,
    );
  });

  it('refuses a password under 10 characters: 400 INVALID_BODY naming `password`; 10 characters are enough', async () => {
    const email = uniqueEmail('short');
    const short = await signUp({ email, password: '123456789', name: 'S' });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('INVALID_BODY');
    expect(short.body.error.details).toEqual([{ path: 'password', message: expect.any(String) }]);
    expect(await h.db.user.count({ where: { email } })).toBe(0);
    expect((await signUp({ email, password: 'plum-94-tx', name: 'S' })).status).toBe(201);
  });

  it('refuses an unknown body field with 400 and details naming it', async () => {
    const email = uniqueEmail('extra');
    const res = await signUp({ email, password: TEST_PASSWORD, name: 'E', role: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details).toEqual([{ path: 'role', message: 'unknown field' }]);
    expect(await h.db.user.count({ where: { email } })).toBe(0);
  });

  it('refuses a body that is not JSON with 415, and malformed JSON with 400, creating nothing', async () => {
    const email = uniqueEmail('type');
    const form = await request(h.app)
      .post('/api/auth/sign-up')
      .type('form')
      .send(`email=${encodeURIComponent(email)}&password=${TEST_PASSWORD}&name=F`);
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await request(h.app)
      .post('/api/auth/sign-up')
      .set('Content-Type', 'application/json')
      .send(`{"email":"${email}","password":`);
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('INVALID_BODY');
    expect(await h.db.user.count({ where: { email } })).toBe(0);
  });
});

describe('what is stored', () => {
  it('keeps the password only as an argon2id PHC string, salted, in no column as itself', async () => {
    const a = await h.signUp('hash-a');
    const b = await h.signUp('hash-b');
    const [userA, userB] = await Promise.all(
      [a, b].map((p) => h.db.user.findUniqueOrThrow({ where: { id: p.user.id } })),
    );
    const phc = /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
    expect(userA?.passwordHash).toMatch(phc);
    expect(userB?.passwordHash).toMatch(phc);
    expect(userA?.passwordHash).not.toBe(userB?.passwordHash); // same password, own salt
    for (const row of await rowsAsText('users', 'id', a.user.id)) expect(row).not.toContain(TEST_PASSWORD);
  });

  it('keeps the session token only as its SHA-256: no column holds the token', async () => {
    const person = await h.signUp('token');
    const sessions = await h.db.session.findMany({ where: { userId: person.user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.tokenHash).toBe(createHash('sha256').update(person.token).digest('hex'));
    const rows = await rowsAsText('sessions', 'user_id', person.user.id);
    expect(rows).toHaveLength(1);
    for (const row of rows) expect(row).not.toContain(person.token);
  });
});

describe('POST /api/auth/sign-in', () => {
  it('answers 200 with the user, a new token and a cookie for it; the sign-up session goes on too', async () => {
    const person = await h.signUp('signin');
    const res = await signIn(person.email.toUpperCase(), TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: person.user, token: expect.any(String), expiresAt: expect.any(String) });
    expect(res.body.token).not.toBe(person.token);
    expect(sessionCookieOf(res).startsWith(`vt_session=${res.body.token};`)).toBe(true);
    expect((await h.as(res.body.token).get('/api/me')).status).toBe(200);
    expect((await h.as(person.token).get('/api/me')).status).toBe(200);
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(2);
  });

  it('answers an unknown email, a wrong password and an account without a password identically', async () => {
    const person = await h.signUp('same-answer');
    const noPassword = await h.db.user.create({ data: { email: uniqueEmail('no-password'), name: 'N' } });
    const answers = await Promise.all([
      signIn(uniqueEmail('nobody'), TEST_PASSWORD),
      signIn(person.email, `${TEST_PASSWORD}!`),
      signIn(noPassword.email, TEST_PASSWORD),
    ]);
    for (const res of answers) {
      expectUnauthenticated(res, 'INVALID_CREDENTIALS');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toEqual(answers[0]?.body);
    }
    expect(await h.db.session.count({ where: { userId: { in: [person.user.id, noPassword.id] } } })).toBe(1);
  });
});

describe('the session', () => {
  it('works as a bearer token and as the cookie, with the same answer', async () => {
    const person = await h.signUp('both');
    const viaBearer = await h.as(person.token).get('/api/me');
    const viaCookie = await meByCookie(person.cookie);
    expect(viaBearer.status).toBe(200);
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.body).toEqual(viaBearer.body);
    expect(viaBearer.body.user).toEqual(person.user);
  });

  it('is revoked by sign-out (204, cookie cleared): 401 as bearer and as cookie; another session goes on', async () => {
    const person = await h.signUp('out');
    const other = await signIn(person.email, TEST_PASSWORD);
    expect(other.status).toBe(200);
    const out = await request(h.app)
      .post('/api/auth/sign-out')
      .set('Cookie', person.cookie)
      .set('Origin', CONSOLE_ORIGIN);
    expect(out.status).toBe(204);
    const cleared = sessionCookieOf(out);
    expect(cleared).toMatch(/^vt_session=;/);
    expect(cleared).toMatch(/; Max-Age=0(;|$)/);
    expect(cleared).toMatch(/; Path=\/(;|$)/);

    expectUnauthenticated(await h.as(person.token).get('/api/me'));
    expectUnauthenticated(await meByCookie(person.cookie));
    expect((await h.as(other.body.token).get('/api/me')).status).toBe(200);
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(1);
  });

  it('signs out by bearer as well, and a second sign-out with the same token is 401', async () => {
    const person = await h.signUp('out-bearer');
    expect((await h.as(person.token).post('/api/auth/sign-out')).status).toBe(204);
    expectUnauthenticated(await h.as(person.token).get('/api/me'));
    expectUnauthenticated(await h.as(person.token).post('/api/auth/sign-out'));
  });

  it('ends at its expiry: 200 until the last moment, then 401 as bearer and as cookie', async () => {
    const start = new Date();
    const short = createConsoleHarness({ sessionTtlMs: 60_000, now: start });
    try {
      const person = await short.signUp('expiry');
      const at = (ms: number) => short.setNow(new Date(start.getTime() + ms));
      at(59_999);
      expect((await short.as(person.token).get('/api/me')).status).toBe(200);
      at(60_000);
      expectUnauthenticated(await short.as(person.token).get('/api/me'));
      expectUnauthenticated(await request(short.app).get('/api/me').set('Cookie', person.cookie));
    } finally {
      await short.close();
    }
  });

  it('expires after the configured lifetime, as sign-up announced', async () => {
    const start = new Date();
    const short = createConsoleHarness({ sessionTtlMs: 5_000, now: start });
    try {
      const res = await request(short.app)
        .post('/api/auth/sign-up')
        .send({ email: uniqueEmail('ttl'), password: TEST_PASSWORD, name: 'T' });
      expect(res.body.expiresAt).toBe(new Date(start.getTime() + 5_000).toISOString());
      short.setNow(new Date(start.getTime() + 5_001));
      expectUnauthenticated(await short.as(res.body.token).get('/api/me'));
    } finally {
      await short.close();
    }
  });
});

describe('requests that do not authenticate', () => {
  it('answers no session, a malformed Authorization header and a made-up token with 401 UNAUTHENTICATED', async () => {
    const person = await h.signUp('malformed');
    const answers = await Promise.all([
      request(h.app).get('/api/me'),
      request(h.app).get('/api/me').set('Authorization', 'Basic YWRhOnBhc3N3b3Jk'),
      request(h.app).get('/api/me').set('Authorization', 'Bearer'),
      request(h.app).get('/api/me').set('Authorization', `Bearer ${person.token} extra`),
      request(h.app).get('/api/me').set('Authorization', person.token),
      // a valid cookie does not rescue a malformed Authorization header: the header decides
      request(h.app).get('/api/me').set('Authorization', 'Basic YWRhOnBhc3N3b3Jk').set('Cookie', person.cookie),
      h.as(`vts_${randomBytes(32).toString('base64url')}`).get('/api/me'),
      h.as('not-even-a-token').get('/api/me'),
      meByCookie(`vt_session=vts_${randomBytes(32).toString('base64url')}`),
      meByCookie('vt_session=nonsense'),
    ]);
    for (const res of answers) expectUnauthenticated(res);
  });

  it('puts WWW-Authenticate on every 401: writes, sign-in failures, revoked sessions', async () => {
    const person = await h.signUp('challenge');
    await h.as(person.token).post('/api/auth/sign-out');
    const answers = await Promise.all([
      h.as(person.token).post('/api/teams', { name: 'X', slug: `x-${randomBytes(4).toString('hex')}` }),
      h.as(person.token).put('/api/session/team', { teamId: '00000000-0000-4000-8000-000000000000' }),
      h.as(person.token).get('/api/team'),
      signIn(person.email, 'not the password'),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    }
  });
});

describe('GET /api/me', () => {
  it('lists the person’s teams with their role in each, and the current team', async () => {
    const person = await h.signUp('me');
    const owner = await h.signUp('me-owner');
    const asMember = await h.teamOf(owner, [{ person, role: 'member' }]);
    const asAdmin = await h.teamOf(owner, [{ person, role: 'admin' }]);
    const own = await h.teamOf(person); // created by this session: selected

    const res = await h.as(person.token).get('/api/me');
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(person.user);
    const teams = res.body.teams as { id: string; slug: string; role: string }[];
    expect(teams).toHaveLength(3);
    expect(teams).toEqual(
      expect.arrayContaining([
        { id: own.teamId, name: `Team ${own.slug}`, slug: own.slug, role: 'owner', settings: {}, branding: {} },
        {
          id: asAdmin.teamId,
          name: `Team ${asAdmin.slug}`,
          slug: asAdmin.slug,
          role: 'admin',
          settings: {},
          branding: {},
        },
        {
          id: asMember.teamId,
          name: `Team ${asMember.slug}`,
          slug: asMember.slug,
          role: 'member',
          settings: {},
          branding: {},
        },
      ]),
    );
    expect(res.body.currentTeamId).toBe(own.teamId);
    expect(Date.parse(res.body.sessionExpiresAt)).toBeGreaterThan(Date.now());
  });

  it('answers a person with no team yet with no teams and no current team', async () => {
    const person = await h.signUp('teamless');
    const res = await h.as(person.token).get('/api/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: person.user, teams: [], currentTeamId: null });
  });
});
