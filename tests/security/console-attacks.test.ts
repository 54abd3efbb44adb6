import { randomBytes, randomUUID } from 'node:crypto';
import { isolatedQueuePrefix, type RunningApp, startApp, testDb } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 33's attacks on the console, repeated as real requests against real console processes
// (the compiled app, its real config parsing and defaults, Postgres and Redis): the four findings
// fixed here (2, 3, 5, 6) and the attacks that held (cross-tenant access, role escalation, mass
// assignment, prototype keys, CSRF, token tampering, enumeration through sign-in), so they stay
// held. Two processes: one with the deployment's defaults (no proxy believed), one told a proxy
// sits in front on loopback (CONSOLE_TRUST_PROXY=loopback), each on a Redis prefix of its own.

const PASSWORD = 'plum tractor 94 lantern';
const WRONG = 'not the password at all';

let plain: RunningApp;
let proxied: RunningApp;
beforeAll(async () => {
  [plain, proxied] = await Promise.all([
    startApp('apps/console/src/main.ts', 'CONSOLE_PORT', { QUEUE_PREFIX: isolatedQueuePrefix() }),
    startApp('apps/console/src/main.ts', 'CONSOLE_PORT', {
      QUEUE_PREFIX: isolatedQueuePrefix(),
      CONSOLE_TRUST_PROXY: 'loopback',
    }),
  ]);
}, 60_000);
afterAll(() => {
  for (const app of [plain, proxied]) app?.child.kill('SIGTERM');
});

interface Call {
  method?: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  teamId?: string;
  headers?: Record<string, string>;
}
async function call(
  app: RunningApp,
  path: string,
  { method = 'GET', body, rawBody, token, teamId, headers = {} }: Call = {},
) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(teamId ? { 'x-team-id': teamId } : {}),
      ...headers,
    },
    ...(rawBody !== undefined ? { body: rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const emailFor = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;
async function signUp(app: RunningApp, label: string) {
  const email = emailFor(label);
  const res = await call(app, '/api/auth/sign-up', {
    method: 'POST',
    body: { email, password: PASSWORD, name: label },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { email, token: res.body.token as string, id: res.body.user.id as string };
}
const signIn = (app: RunningApp, email: string, password: string, headers: Record<string, string> = {}) =>
  call(app, '/api/auth/sign-in', { method: 'POST', body: { email, password }, headers });
const deviceCookieOf = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .find((c) => /^(__Host-)?vt_device=/.test(c))
    ?.split(';')[0];

/** A team owned by a new person, with a plain member added as the operator would (`ops team add-member`). */
async function teamWithMember(app: RunningApp) {
  const owner = await signUp(app, 'owner');
  const member = await signUp(app, 'member');
  const slug = `sec-${randomBytes(5).toString('hex')}`;
  const team = await call(app, '/api/teams', { method: 'POST', token: owner.token, body: { name: slug, slug } });
  expect(team.status).toBe(201);
  const teamId = team.body.team.id as string;
  await testDb().membership.create({ data: { teamId, userId: member.id, role: 'member' } });
  return { owner, member, teamId };
}

describe('finding 2: nobody can lock an account out', () => {
  it('[issue 33 #2] ten wrong passwords with rotated X-Forwarded-For slow the attacker; the owner’s browser signs in', async () => {
    const owner = await signUp(plain, 'lockout');
    const home = await signIn(plain, owner.email, PASSWORD);
    expect(home.status).toBe(200);
    const device = deviceCookieOf(home);
    expect(device).toMatch(/^vt_device=vtd_/);

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await signIn(plain, owner.email, WRONG, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      statuses.push(res.status);
    }
    // Five free failures, a sixth that starts the backoff, then 429 at once: the rotated header
    // bought nothing, as no proxy is believed by default.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
    const owners = await signIn(plain, owner.email, PASSWORD, { cookie: device ?? '' });
    expect(owners.status).toBe(200);
  });

  it('[issue 33 #2] with a proxy declared, another address is another client: the owner elsewhere is not slowed', async () => {
    const owner = await signUp(proxied, 'elsewhere');
    for (let i = 0; i < 10; i++) await signIn(proxied, owner.email, WRONG, { 'x-forwarded-for': '203.0.113.66' });
    const attacker = await signIn(proxied, owner.email, PASSWORD, { 'x-forwarded-for': '203.0.113.66' });
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get('retry-after'))).toBeLessThan(900);
    expect((await signIn(proxied, owner.email, PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
  });

  it('[held] enumeration through sign-in: an unknown email and a wrong password get the same answer', async () => {
    const person = await signUp(proxied, 'enum');
    const known = await signIn(proxied, person.email, WRONG, { 'x-forwarded-for': '198.51.100.20' });
    const unknown = await signIn(proxied, emailFor('ghost'), WRONG, { 'x-forwarded-for': '198.51.100.21' });
    expect(known.status).toBe(401);
    expect(unknown.body).toEqual(known.body);
  });
});

describe('finding 3: no one is added to a team without saying yes, and nothing tells who has an account', () => {
  it('[issue 33 #3] POST /api/team/members is 405 and adds no one, for an email with an account or without', async () => {
    const { owner, teamId } = await teamWithMember(plain);
    const target = await signUp(plain, 'target');
    const withAccount = await call(plain, '/api/team/members', {
      method: 'POST',
      token: owner.token,
      teamId,
      body: { email: target.email, role: 'admin' },
    });
    const without = await call(plain, '/api/team/members', {
      method: 'POST',
      token: owner.token,
      teamId,
      body: { email: emailFor('nobody'), role: 'admin' },
    });
    expect([withAccount.status, without.status]).toEqual([405, 405]);
    expect(withAccount.body).toEqual(without.body);
    expect(await testDb().membership.count({ where: { teamId, userId: target.id } })).toBe(0);
  });

  it('[issue 33 #3] sign-up’s EMAIL_TAKEN costs what a wrong password does: probes from one address stop after 50', async () => {
    const taken = await signUp(proxied, 'probed');
    const probe = () =>
      call(proxied, '/api/auth/sign-up', {
        method: 'POST',
        body: { email: taken.email, password: PASSWORD, name: 'P' },
        headers: { 'x-forwarded-for': '192.0.2.50' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) statuses.push((await probe()).status);
    expect(statuses.slice(0, 50).every((s) => s === 409)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('finding 5: common passwords are refused, with the reason', () => {
  it('[issue 33 #5] aaaaaaaaaa, 1234567890 and ten spaces: 400 at `password`, and no account', async () => {
    for (const password of ['aaaaaaaaaa', '1234567890', ' '.repeat(10), 'Password123']) {
      const email = emailFor('weak');
      const res = await call(plain, '/api/auth/sign-up', { method: 'POST', body: { email, password, name: 'W' } });
      expect(res.status, password).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'password', message: expect.stringMatching(/choose another|spaces/) },
      ]);
      expect(await testDb().user.count({ where: { email } })).toBe(0);
    }
  });
});

describe('finding 6: headers', () => {
  it('[issue 33 #6] Permissions-Policy, and a CSP whose style-src is the console’s own files only', async () => {
    for (const path of ['/api/me', '/api/docs', '/healthz']) {
      const res = await fetch(`${plain.url}${path}`);
      expect(res.headers.get('permissions-policy'), path).toMatch(/camera=\(\).*microphone=\(\)/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/style-src 'self'(;|$)/);
      expect(csp, path).not.toContain('unsafe-inline');
    }
  });

  it('[issue 33 #6] over TLS through a declared proxy the cookies are __Host- named and Secure; a forged X-Forwarded-Proto is ignored without one', async () => {
    const person = await signUp(plain, 'tls');
    const viaProxy = await signIn(proxied, person.email, PASSWORD, { 'x-forwarded-proto': 'https' });
    const cookies = viaProxy.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('__Host-vt_session=') && /; Secure/.test(c) && /; Path=\//.test(c))).toBe(
      true,
    );
    expect(cookies.some((c) => c.startsWith('__Host-vt_device='))).toBe(true);
    const direct = await signIn(plain, person.email, PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(direct.headers.getSetCookie().some((c) => c.startsWith('vt_session=') && !/; Secure/.test(c))).toBe(true);
  });
});

describe('attacks that held, kept held', () => {
  it('[held] cross-tenant access: another team’s id answers as a team that does not exist', async () => {
    const a = await teamWithMember(plain);
    const b = await teamWithMember(plain);
    const foreign = await call(plain, '/api/team', { token: a.owner.token, teamId: b.teamId });
    const none = await call(plain, '/api/team', { token: a.owner.token, teamId: randomUUID() });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(none.body);
  });

  it('[held] role escalation: a member cannot make themself owner or admin', async () => {
    const { member, teamId } = await teamWithMember(plain);
    for (const role of ['owner', 'admin']) {
      const res = await call(plain, '/api/team/role', {
        method: 'PUT',
        token: member.token,
        teamId,
        body: { userId: member.id, role },
      });
      expect(res.status).toBe(403);
    }
    expect((await testDb().membership.findFirstOrThrow({ where: { teamId, userId: member.id } })).role).toBe('member');
  });

  it('[held] mass assignment and prototype keys: unknown fields are refused by name, nothing is written', async () => {
    const email = emailFor('mass');
    const mass = await call(plain, '/api/auth/sign-up', {
      method: 'POST',
      body: { email, password: PASSWORD, name: 'M', role: 'owner', passwordHash: 'x' },
    });
    expect(mass.status).toBe(400);
    expect(mass.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['passwordHash', 'role']);
    const proto = await call(plain, '/api/auth/sign-up', {
      method: 'POST',
      rawBody: `{"email":"${email}","password":"${PASSWORD}","name":"P","__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`,
    });
    expect(proto.status).toBe(400);
    expect(await testDb().user.count({ where: { email } })).toBe(0);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('[held] CSRF: a cookie write from a foreign origin is refused', async () => {
    const person = await signUp(plain, 'csrf');
    const res = await call(plain, '/api/teams', {
      method: 'POST',
      headers: { cookie: `vt_session=${person.token}`, origin: 'https://evil.example' },
      body: { name: 'Evil', slug: `evil-${randomBytes(4).toString('hex')}` },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_REJECTED');
  });

  it('[held] token tampering: a changed session token, device token or invitation token opens nothing', async () => {
    const person = await signUp(plain, 'tamper');
    const flipped = `${person.token.slice(0, -2)}${person.token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await call(plain, '/api/me', { token: flipped })).status).toBe(401);
    const lookup = await call(plain, '/api/invitations/lookup', {
      method: 'POST',
      body: { token: `vti_${randomBytes(32).toString('base64url')}` },
    });
    expect(lookup.status).toBe(404);
  });
});
