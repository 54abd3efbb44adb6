import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../testing/index.ts';

// The spec's team endpoints (TEAM-1..3) under /api, the rules the spec leaves open (slugs,
// settings, branding, who may patch), and 404 across teams. The current team: auth/current-team.test.ts.

const h = createConsoleHarness();
afterAll(() => h.close());

const freshSlug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;

describe('teams', () => {
  it('[TEAM-1] creates a team whose creator is its owner, and selects it for the session', async () => {
    const owner = await h.signUp('creator');
    const slug = freshSlug('acme');
    const res = await h.as(owner.token).post('/api/teams', { name: ' Acme ', slug });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      team: { id: expect.any(String), name: 'Acme', slug, settings: {}, branding: {}, createdAt: expect.any(String) },
      role: 'owner',
      members: [
        {
          userId: owner.user.id,
          email: owner.email,
          name: owner.user.name,
          role: 'owner',
          joinedAt: expect.any(String),
        },
      ],
    });
    const membership = await h.db.membership.findFirstOrThrow({ where: { teamId: res.body.team.id } });
    expect(membership).toMatchObject({ userId: owner.user.id, role: 'owner' });
    expect((await h.as(owner.token).get('/api/me')).body.currentTeamId).toBe(res.body.team.id);
  });

  it('[TEAM-1] refuses a slug that breaks a rule (400 with the field) and a taken one (409), also when two creates race', async () => {
    const owner = await h.signUp('slugs');
    for (const slug of ['ab', 'a'.repeat(49), 'Acme', 'acme_inc', 'acmé', '-acme', 'acme-', 'api', 'www']) {
      const res = await h.as(owner.token).post('/api/teams', { name: 'X', slug });
      expect(res.status, slug).toBe(400);
      expect(res.body.error.details, slug).toEqual([{ path: 'slug', message: expect.stringMatching(/^slug /) }]);
    }
    const slug = freshSlug('race');
    const [a, b] = await Promise.all([
      h.as(owner.token).post('/api/teams', { name: 'A', slug }),
      h.as(owner.token).post('/api/teams', { name: 'B', slug }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)?.body.error.code).toBe('SLUG_TAKEN');
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
  });

  it('[TEAM-3] check-slug says whether a slug is available, and why not', async () => {
    const owner = await h.signUp('check');
    const { slug: taken } = await h.teamOf(owner);
    const check = async (slug: string) =>
      (await h.as(owner.token).get(`/api/teams/check-slug?slug=${encodeURIComponent(slug)}`)).body;
    const free = freshSlug('free');
    expect(await check(free)).toEqual({ slug: free, available: true });
    const reasons: [string, string][] = [
      ['ab', 'too_short'],
      ['a'.repeat(49), 'too_long'],
      ['Acme', 'invalid_characters'],
      ['acme_inc', 'invalid_characters'],
      ['-acme', 'hyphen_at_edge'],
      ['acme-', 'hyphen_at_edge'],
      ['admin', 'reserved'],
      ['app', 'reserved'],
      [taken, 'taken'],
    ];
    for (const [slug, reason] of reasons) {
      expect(await check(slug), slug).toEqual({ slug, available: false, reason, message: expect.any(String) });
    }
    const missing = await h.as(owner.token).get('/api/teams/check-slug');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'INVALID_PARAM',
      details: [{ path: 'slug', message: expect.any(String) }],
    });
  });

  it('[TEAM-2] GET /api/team returns the current team with settings, branding, members with roles and the caller’s role', async () => {
    const owner = await h.signUp('owner');
    const member = await h.signUp('member');
    const { teamId, slug } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const res = await h.as(member.token, teamId).get('/api/team');
    expect(res.status).toBe(200);
    expect(res.body.team).toMatchObject({ id: teamId, slug, settings: {}, branding: {} });
    expect(res.body.role).toBe('member');
    expect(res.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.user.id, 'owner'],
      [member.user.id, 'member'],
    ]);
  });

  it('[TEAM-2] PATCH /api/team updates name, slug, settings and branding, each object replaced whole', async () => {
    const owner = await h.signUp('patch');
    const { teamId } = await h.teamOf(owner);
    const api = h.as(owner.token, teamId);
    const slug = freshSlug('renamed');
    const first = await api.patch('/api/team', {
      name: 'Renamed',
      slug,
      settings: { timeZone: 'Europe/Paris', weekStartsOn: 'sunday', defaultDayRange: 90 },
      branding: { displayName: 'Renamed Inc', logoUrl: 'https://cdn.example/logo.png', accentColor: '#1A2b3c' },
    });
    expect(first.status).toBe(200);
    expect(first.body.team).toMatchObject({
      name: 'Renamed',
      slug,
      settings: { timeZone: 'Europe/Paris', weekStartsOn: 'sunday', defaultDayRange: 90 },
      branding: { displayName: 'Renamed Inc', logoUrl: 'https://cdn.example/logo.png', accentColor: '#1A2b3c' },
    });
    const second = await api.patch('/api/team', { settings: { weekStartsOn: 'monday' } });
    expect(second.body.team.settings).toEqual({ weekStartsOn: 'monday' });
    expect(second.body.team.branding.displayName).toBe('Renamed Inc');
    const stored = await h.db.team.findUniqueOrThrow({ where: { id: teamId } });
    expect(stored).toMatchObject({ name: 'Renamed', slug, settings: { weekStartsOn: 'monday' } });
  });

  it('[TEAM-2] PATCH refuses bad values and unknown fields with each field path, and a taken slug with 409', async () => {
    const owner = await h.signUp('patch-bad');
    const { teamId } = await h.teamOf(owner);
    const { slug: other } = await h.teamOf(owner);
    const api = h.as(owner.token, teamId);
    const bad = await api.patch('/api/team', {
      settings: { timeZone: 'Mars/Olympus', digest: true },
      branding: { logoUrl: 'http://insecure.example/logo.png', accentColor: 'blue' },
      colour: 'red',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'branding.accentColor',
      'branding.logoUrl',
      'colour',
      'settings.digest',
      'settings.timeZone',
    ]);
    const taken = await api.patch('/api/team', { slug: other });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('SLUG_TAKEN');
    expect((await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).settings).toEqual({});
  });

  it('[TEAM-2] a member cannot patch the team (403) and nothing changes', async () => {
    const owner = await h.signUp('owner');
    const member = await h.signUp('member');
    const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const res = await h.as(member.token, teamId).patch('/api/team', { name: 'Hijacked' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).name).not.toBe('Hijacked');
  });

  it('answers a team the caller is not in exactly like one that does not exist, never hinting it exists', async () => {
    const owner = await h.signUp('theirs');
    const { teamId } = await h.teamOf(owner);
    const stranger = await h.signUp('stranger');
    await h.teamOf(stranger);
    const theirs = await h.as(stranger.token, teamId).get('/api/team');
    const none = await h.as(stranger.token, '00000000-0000-4000-8000-000000000000').get('/api/team');
    const malformed = await h.as(stranger.token, 'not-a-team').get('/api/team');
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(none.body);
    expect(malformed.body).toEqual(none.body);
    const select = await h.as(stranger.token).put('/api/session/team', { teamId });
    expect(select.status).toBe(404);
    expect(select.body).toEqual(none.body);
  });
});
