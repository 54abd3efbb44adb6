import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The spec's team endpoints under /api: creating a team whose creator is its owner (TEAM-1), reading
// and patching the current team (TEAM-2), and the slug rules with check-slug (TEAM-3): lower-case
// a-z, digits and inner hyphens, 3–48 characters, not reserved, unique (409 SLUG_TAKEN, also under a
// race). Members may not patch (403); a team the caller is not in is 404, exactly like no team at all.
// Roles and members: members/members.test.ts; how the current team is chosen: auth/current-team.test.ts.

const h = createConsoleHarness();
afterAll(() => h.close());

const freshSlug = (label: string) => `${label}-${randomBytes(5).toString('hex')}`;

/** Slugs that break a rule, with the reason check-slug gives. */
const BAD_SLUGS: [slug: string, reason: string][] = [
  ['ab', 'too_short'],
  ['a'.repeat(49), 'too_long'],
  ['Acme', 'invalid_characters'],
  ['acme_inc', 'invalid_characters'],
  ['acmé', 'invalid_characters'],
  ['-acme', 'hyphen_at_edge'],
  ['acme-', 'hyphen_at_edge'],
  ['api', 'reserved'],
  ['admin', 'reserved'],
  ['www', 'reserved'],
];

const checkSlug = (person: SignedUp, slug: string) =>
  h.as(person.token).get(`/api/teams/check-slug?slug=${encodeURIComponent(slug)}`);

/** What a refused write must leave as it was. */
const storedTeam = (teamId: string) =>
  h.db.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { name: true, slug: true, settings: true, branding: true },
  });

/** A team with an owner, an admin and a member. */
async function trio() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId, slug } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  return { teamId, slug, owner, admin, member, as };
}

const memberOf = (person: SignedUp, role: string) => ({
  userId: person.user.id,
  email: person.email,
  name: person.user.name,
  role,
  joinedAt: expect.any(String),
});

describe('POST /api/teams', () => {
  it('[TEAM-1] creates a team from a name and a slug (201) and makes its creator the owner', async () => {
    const creator = await h.signUp('creator');
    const slug = freshSlug('acme');
    const res = await h.as(creator.token).post('/api/teams', { name: ' Acme Inc ', slug });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      team: {
        id: expect.any(String),
        name: 'Acme Inc',
        slug,
        settings: {},
        branding: {},
        createdAt: expect.any(String),
      },
      role: 'owner',
      members: [memberOf(creator, 'owner')],
    });
    const teamId = res.body.team.id;
    const memberships = await h.db.membership.findMany({ where: { teamId }, select: { userId: true, role: true } });
    expect(memberships).toEqual([{ userId: creator.user.id, role: 'owner' }]);
    const me = await h.as(creator.token).get('/api/me');
    expect(me.body.teams).toEqual([{ id: teamId, name: 'Acme Inc', slug, role: 'owner', settings: {}, branding: {} }]);
  });

  it('[TEAM-1] the creator goes on working in the new team: GET /api/team answers it without X-Team-Id', async () => {
    const creator = await h.signUp('creator');
    const { teamId: first } = await h.teamOf(creator);
    const second = await h.as(creator.token).post('/api/teams', { name: 'Second', slug: freshSlug('second') });
    expect(second.status).toBe(201);
    expect(second.body.team.id).not.toBe(first);
    const current = await h.as(creator.token).get('/api/team');
    expect(current.status).toBe(200);
    expect(current.body.team.id).toBe(second.body.team.id);
    expect(current.body.role).toBe('owner');
  });

  it('[TEAM-1] accepts slugs of exactly 3 and 48 characters, with digits and inner hyphens', async () => {
    const creator = await h.signUp('edges');
    const short = randomBytes(2).toString('hex').slice(0, 3);
    const long = `x-${randomBytes(23).toString('hex')}`;
    expect(long).toHaveLength(48);
    for (const slug of [short, long]) {
      const res = await h.as(creator.token).post('/api/teams', { name: 'Edge', slug });
      expect(res.status, slug).toBe(201);
      expect(res.body.team.slug).toBe(slug);
    }
  });

  it('[TEAM-1] refuses a slug that breaks a rule with 400 INVALID_BODY naming `slug`, and creates nothing', async () => {
    const creator = await h.signUp('bad-slugs');
    for (const [slug] of BAD_SLUGS) {
      const res = await h.as(creator.token).post('/api/teams', { name: 'Bad', slug });
      expect(res.status, slug).toBe(400);
      expect(res.body.error, slug).toEqual({
        code: 'INVALID_BODY',
        message: expect.any(String),
        details: [{ path: 'slug', message: expect.any(String) }],
      });
    }
    expect(await h.db.membership.count({ where: { userId: creator.user.id } })).toBe(0);
    expect(await h.db.team.count({ where: { slug: { in: BAD_SLUGS.map(([slug]) => slug) } } })).toBe(0);
  });

  it('[TEAM-1] requires a name and refuses unknown fields, naming each', async () => {
    const creator = await h.signUp('fields');
    const res = await h.as(creator.token).post('/api/teams', { slug: freshSlug('fields'), plan: 'growth' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'plan']);
    expect(await h.db.membership.count({ where: { userId: creator.user.id } })).toBe(0);
  });

  it('[TEAM-1] refuses a slug another team has with 409 SLUG_TAKEN, leaving that team as it was', async () => {
    const owner = await h.signUp('first');
    const { teamId, slug } = await h.teamOf(owner);
    const before = await storedTeam(teamId);
    const latecomer = await h.signUp('latecomer');
    const res = await h.as(latecomer.token).post('/api/teams', { name: 'Copycat', slug });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SLUG_TAKEN');
    expect(await storedTeam(teamId)).toEqual(before);
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
    expect(await h.db.membership.count({ where: { userId: latecomer.user.id } })).toBe(0);
  });

  it('[TEAM-1] two creates racing for one slug: exactly one 201, the other 409 SLUG_TAKEN', async () => {
    const a = await h.signUp('racer-a');
    const b = await h.signUp('racer-b');
    const slug = freshSlug('race');
    const answers = await Promise.all([
      h.as(a.token).post('/api/teams', { name: 'A', slug }),
      h.as(b.token).post('/api/teams', { name: 'B', slug }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = answers.findIndex((r) => r.status === 201);
    expect(answers[1 - winner]?.body.error.code).toBe('SLUG_TAKEN');
    const team = await h.db.team.findUniqueOrThrow({ where: { slug }, include: { memberships: true } });
    expect(team.id).toBe(answers[winner]?.body.team.id);
    expect(team.memberships.map((m) => [m.userId, m.role])).toEqual([[[a, b][winner]?.user.id, 'owner']]);
    expect(await h.db.membership.count({ where: { userId: [a, b][1 - winner]?.user.id } })).toBe(0);
  });
});

describe('GET /api/teams/check-slug', () => {
  it('[TEAM-3] answers {slug, available: true} for a free slug, and taken once a team has it', async () => {
    const person = await h.signUp('checker');
    const slug = freshSlug('free');
    const free = await checkSlug(person, slug);
    expect(free.status).toBe(200);
    expect(free.body).toEqual({ slug, available: true });
    expect((await h.as(person.token).post('/api/teams', { name: 'Now taken', slug })).status).toBe(201);
    expect((await checkSlug(person, slug)).body).toEqual({
      slug,
      available: false,
      reason: 'taken',
      message: expect.any(String),
    });
  });

  it('[TEAM-3] says why a slug is not available, one reason per rule', async () => {
    const person = await h.signUp('why');
    const { slug: taken } = await h.teamOf(await h.signUp('holder'));
    const expected: [slug: string, reason: string][] = [...BAD_SLUGS, [taken, 'taken']];
    for (const [slug, reason] of expected) {
      const res = await checkSlug(person, slug);
      expect(res.status, slug).toBe(200);
      expect(res.body, slug).toEqual({ slug, available: false, reason, message: expect.any(String) });
    }
  });

  it('[TEAM-3] frees a slug a team renames away from, and takes the new one', async () => {
    const owner = await h.signUp('renamer');
    const { teamId, slug: old } = await h.teamOf(owner);
    const renamed = freshSlug('renamed');
    expect((await h.as(owner.token, teamId).patch('/api/team', { slug: renamed })).status).toBe(200);
    expect((await checkSlug(owner, old)).body).toEqual({ slug: old, available: true });
    expect((await checkSlug(owner, renamed)).body).toMatchObject({ available: false, reason: 'taken' });
  });

  it('[TEAM-3] requires the slug parameter (400 INVALID_PARAM naming slug) and a session (401)', async () => {
    const person = await h.signUp('no-slug');
    const missing = await h.as(person.token).get('/api/teams/check-slug');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'INVALID_PARAM',
      details: [{ path: 'slug', message: expect.any(String) }],
    });
    const anonymous = await request(h.app).get(`/api/teams/check-slug?slug=${freshSlug('anon')}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('GET /api/team', () => {
  it('[TEAM-2] returns name, slug, settings, branding, the members with roles and the caller’s role', async () => {
    const t = await trio();
    const members = [memberOf(t.owner, 'owner'), memberOf(t.admin, 'admin'), memberOf(t.member, 'member')];
    for (const [person, role] of [
      [t.owner, 'owner'],
      [t.admin, 'admin'],
      [t.member, 'member'],
    ] as const) {
      const res = await t.as(person).get('/api/team');
      expect(res.status, role).toBe(200);
      expect(res.body, role).toEqual({
        team: {
          id: t.teamId,
          name: `Team ${t.slug}`,
          slug: t.slug,
          settings: {},
          branding: {},
          createdAt: expect.any(String),
        },
        role,
        members,
      });
    }
  });
});

describe('PATCH /api/team', () => {
  const fullPatch = () => ({
    name: 'Renamed Inc',
    slug: freshSlug('renamed'),
    settings: { timeZone: 'Europe/Paris', weekStartsOn: 'sunday', defaultDayRange: 90 },
    branding: { displayName: 'Renamed', logoUrl: 'https://cdn.example.test/logo.png', accentColor: '#1A2b3c' },
  });

  it('[TEAM-2] an owner updates name, slug, settings and branding; the answer, the row and GET agree', async () => {
    const t = await trio();
    const patch = fullPatch();
    const res = await t.as(t.owner).patch('/api/team', patch);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      team: { id: t.teamId, ...patch, createdAt: expect.any(String) },
      role: 'owner',
      members: [memberOf(t.owner, 'owner'), memberOf(t.admin, 'admin'), memberOf(t.member, 'member')],
    });
    expect(await storedTeam(t.teamId)).toEqual(patch);
    const read = await t.as(t.member).get('/api/team');
    expect(read.body.team).toEqual(res.body.team);
    // Every member's /api/me carries them too: the header's logo, the pages' time zone.
    const me = await h.as(t.member.token).get('/api/me');
    expect(me.body.teams.find((team: { id: string }) => team.id === t.teamId)).toMatchObject({
      settings: patch.settings,
      branding: patch.branding,
    });
  });

  it('[TEAM-2] an admin may patch too, and settings and branding are each replaced whole', async () => {
    const t = await trio();
    const patch = fullPatch();
    expect((await t.as(t.admin).patch('/api/team', patch)).status).toBe(200);

    const settingsOnly = await t.as(t.admin).patch('/api/team', { settings: { weekStartsOn: 'monday' } });
    expect(settingsOnly.status).toBe(200);
    expect(settingsOnly.body.team).toMatchObject({
      name: patch.name,
      slug: patch.slug,
      settings: { weekStartsOn: 'monday' },
      branding: patch.branding,
    });
    expect((await storedTeam(t.teamId)).settings).toEqual({ weekStartsOn: 'monday' });

    const brandingCleared = await t.as(t.admin).patch('/api/team', { branding: {} });
    expect(brandingCleared.body.team.branding).toEqual({});
    expect(await storedTeam(t.teamId)).toEqual({ ...patch, settings: { weekStartsOn: 'monday' }, branding: {} });
  });

  it('[TEAM-2] keeping the team’s own slug is no conflict', async () => {
    const t = await trio();
    const res = await t.as(t.owner).patch('/api/team', { name: 'Same slug', slug: t.slug });
    expect(res.status).toBe(200);
    expect(res.body.team).toMatchObject({ name: 'Same slug', slug: t.slug });
  });

  it('[TEAM-2] refuses a slug another team has with 409 SLUG_TAKEN, and changes nothing', async () => {
    const t = await trio();
    const { slug: other } = await h.teamOf(await h.signUp('neighbour'));
    const before = await storedTeam(t.teamId);
    const res = await t.as(t.owner).patch('/api/team', { name: 'Should not stick', slug: other });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SLUG_TAKEN');
    expect(await storedTeam(t.teamId)).toEqual(before);
  });

  it('[TEAM-2] refuses each invalid value or unknown field with 400 naming its path, and changes nothing', async () => {
    const t = await trio();
    const before = await storedTeam(t.teamId);
    const cases: [body: object, path: string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ slug: 'Acme' }, 'slug'],
      [{ slug: 'api' }, 'slug'],
      [{ settings: 'dark' }, 'settings'],
      [{ settings: { timeZone: 'Mars/Olympus' } }, 'settings.timeZone'],
      [{ settings: { weekStartsOn: 'tuesday' } }, 'settings.weekStartsOn'],
      [{ settings: { defaultDayRange: 14 } }, 'settings.defaultDayRange'],
      [{ settings: { defaultDayRange: '30' } }, 'settings.defaultDayRange'],
      [{ settings: { theme: 'dark' } }, 'settings.theme'],
      [{ branding: { displayName: '' } }, 'branding.displayName'],
      [{ branding: { logoUrl: 'http://cdn.example.test/logo.png' } }, 'branding.logoUrl'],
      [{ branding: { logoUrl: 'javascript:alert(1)' } }, 'branding.logoUrl'],
      [{ branding: { logoUrl: 'not a url' } }, 'branding.logoUrl'],
      [{ branding: { accentColor: 'blue' } }, 'branding.accentColor'],
      [{ branding: { accentColor: '#abc' } }, 'branding.accentColor'],
      [{ branding: { accentColor: '#1a2b3g' } }, 'branding.accentColor'],
      [{ branding: { font: 'Comic Sans' } }, 'branding.font'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, path] of cases) {
      const res = await t.as(t.owner).patch('/api/team', { name: 'Valid name', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_BODY');
      expect(res.body.error.details, JSON.stringify(body)).toEqual([{ path, message: expect.any(String) }]);
    }

    const many = await t.as(t.owner).patch('/api/team', {
      settings: { timeZone: 'Mars/Olympus', digest: true },
      branding: { logoUrl: 'http://cdn.example.test/logo.png', accentColor: 'blue' },
      colour: 'red',
    });
    expect(many.status).toBe(400);
    expect(many.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'branding.accentColor',
      'branding.logoUrl',
      'colour',
      'settings.digest',
      'settings.timeZone',
    ]);
    expect(await storedTeam(t.teamId)).toEqual(before);
  });

  it('[TEAM-2] a member cannot patch the team: 403 FORBIDDEN, and nothing changes', async () => {
    const t = await trio();
    const before = await storedTeam(t.teamId);
    const res = await t.as(t.member).patch('/api/team', fullPatch());
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(await storedTeam(t.teamId)).toEqual(before);
  });
});

describe('a team the caller is not in', () => {
  it('[TEAM-2] answers 404 NOT_FOUND exactly like a team that does not exist, for reads and writes', async () => {
    const t = await trio();
    const stranger = await h.signUp('stranger');
    await h.teamOf(stranger);
    const before = await storedTeam(t.teamId);
    const nowhere = randomUUID();

    const theirs = await h.as(stranger.token, t.teamId).get('/api/team');
    const none = await h.as(stranger.token, nowhere).get('/api/team');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('NOT_FOUND');
    expect([theirs.status, theirs.body]).toEqual([none.status, none.body]);

    const patchTheirs = await h.as(stranger.token, t.teamId).patch('/api/team', { name: 'Taken over' });
    const patchNone = await h.as(stranger.token, nowhere).patch('/api/team', { name: 'Taken over' });
    expect(patchNone.status).toBe(404);
    expect([patchTheirs.status, patchTheirs.body]).toEqual([patchNone.status, patchNone.body]);
    expect(await storedTeam(t.teamId)).toEqual(before);
  });
});
