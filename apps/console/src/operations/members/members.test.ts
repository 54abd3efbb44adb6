import { randomUUID } from 'node:crypto';
import { addMember } from '@vt/accounts';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp, TEST_PASSWORD } from '../../testing/index.ts';

// Roles (TEAM-4) and the members around them. PUT /api/team/role: owners and admins change roles,
// only an owner grants or takes away the owner role, the last owner stays (409 LAST_OWNER, also when
// two owners demote each other at once). Members: listing (every member), no direct add (people join
// by accepting an invitation: invitations.test.ts), removing, leaving; a person out of the team, removed or
// gone, reaches it no more (404, as for a team that does not exist).

const h = createConsoleHarness();
afterAll(() => h.close());

type Role = 'owner' | 'admin' | 'member';

/** A team with an owner, an admin and a member, plus whoever else is given, and ways to act on it. */
async function team(others: { label: string; role: Role }[] = []) {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const extra: SignedUp[] = [];
  for (const { label } of others) extra.push(await h.signUp(label));
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
    ...others.map(({ role }, i) => ({ person: extra[i] as SignedUp, role })),
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  return {
    teamId,
    owner,
    admin,
    member,
    extra,
    as,
    setRole: (actor: SignedUp, target: SignedUp, role: Role) =>
      as(actor).put('/api/team/role', { userId: target.user.id, role }),
    roleOf: (person: SignedUp) => roleIn(teamId, person),
    /** Every membership of the team, to show a refused change left them all as they were. */
    roles: () => rolesIn(teamId),
  };
}

async function roleIn(teamId: string, person: SignedUp): Promise<Role | null> {
  const row = await h.db.membership.findUnique({ where: { teamId_userId: { teamId, userId: person.user.id } } });
  return row?.role ?? null;
}

async function rolesIn(teamId: string) {
  const rows = await h.db.membership.findMany({ where: { teamId }, select: { userId: true, role: true } });
  return Object.fromEntries(rows.map((r) => [r.userId, r.role]));
}

const ownersIn = (teamId: string) => h.db.membership.count({ where: { teamId, role: 'owner' } });

/** The answer for a team that does not exist: what every outsider must get instead. */
const noSuchTeam = async (person: SignedUp) => {
  const res = await h.as(person.token, randomUUID()).get('/api/team');
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('NOT_FOUND');
  return res.body;
};

const memberView = (person: SignedUp, role: Role) => ({
  userId: person.user.id,
  email: person.email,
  name: person.user.name,
  role,
  joinedAt: expect.any(String),
});

describe('PUT /api/team/role', () => {
  it('[TEAM-4] an admin makes a member an admin, and back again', async () => {
    const t = await team();
    const up = await t.setRole(t.admin, t.member, 'admin');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ member: memberView(t.member, 'admin') });
    expect(await t.roleOf(t.member)).toBe('admin');
    const down = await t.setRole(t.admin, t.member, 'member');
    expect(down.status).toBe(200);
    expect(down.body).toEqual({ member: memberView(t.member, 'member') });
    expect(await t.roleOf(t.member)).toBe('member');
  });

  it('[TEAM-4] a member changes no role, not even their own: 403 FORBIDDEN and nothing changes', async () => {
    const t = await team();
    const before = await t.roles();
    for (const [target, role] of [
      [t.member, 'admin'],
      [t.member, 'owner'],
      [t.admin, 'member'],
      [t.owner, 'member'],
    ] as const) {
      const res = await t.setRole(t.member, target, role);
      expect(res.status, `${target.user.name} → ${role}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect(await t.roles()).toEqual(before);
  });

  it('[TEAM-4] only an owner grants the owner role: an admin gets 403, an owner succeeds', async () => {
    const t = await team();
    const before = await t.roles();
    for (const target of [t.member, t.admin]) {
      const res = await t.setRole(t.admin, target, 'owner');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect(await t.roles()).toEqual(before);
    const granted = await t.setRole(t.owner, t.member, 'owner');
    expect(granted.status).toBe(200);
    expect(granted.body.member.role).toBe('owner');
    expect(await t.roleOf(t.member)).toBe('owner');
  });

  it('[TEAM-4] only an owner demotes an owner: an admin gets 403 even when another owner would remain', async () => {
    const t = await team([{ label: 'co-owner', role: 'owner' }]);
    const before = await t.roles();
    for (const target of [t.owner, ...t.extra]) {
      for (const role of ['admin', 'member'] as const) {
        const res = await t.setRole(t.admin, target, role);
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
    expect(await t.roles()).toEqual(before);
  });

  it('[TEAM-4] the last owner cannot be demoted: 409 LAST_OWNER', async () => {
    const t = await team();
    for (const role of ['admin', 'member'] as const) {
      const res = await t.setRole(t.owner, t.owner, role);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('LAST_OWNER');
    }
    expect(await t.roleOf(t.owner)).toBe('owner');
  });

  it('[TEAM-4] with two owners one may demote the other, who may not then demote the last', async () => {
    const t = await team([{ label: 'co-owner', role: 'owner' }]);
    const coOwner = t.extra[0] as SignedUp;
    const demoted = await t.setRole(t.owner, coOwner, 'admin');
    expect(demoted.status).toBe(200);
    expect(await t.roleOf(coOwner)).toBe('admin');
    const back = await t.setRole(coOwner, t.owner, 'admin');
    expect(back.status).toBe(403);
    const self = await t.setRole(t.owner, t.owner, 'member');
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('LAST_OWNER');
    expect(await ownersIn(t.teamId)).toBe(1);
  });

  it('[TEAM-4] an owner may step down while another owner remains', async () => {
    const t = await team([{ label: 'co-owner', role: 'owner' }]);
    const res = await t.setRole(t.owner, t.owner, 'admin');
    expect(res.status).toBe(200);
    expect(await t.roleOf(t.owner)).toBe('admin');
    expect(await t.roleOf(t.extra[0] as SignedUp)).toBe('owner');
  });

  it('[TEAM-4] two owners demoting each other at the same moment leave exactly one owner', async () => {
    // Several races at once, each in its own team: the last-owner check must hold in every one.
    const races = await Promise.all(
      [1, 2, 3].map(async () => {
        const t = await team([{ label: 'co-owner', role: 'owner' }]);
        const coOwner = t.extra[0] as SignedUp;
        const [a, b] = await Promise.all([
          t.setRole(t.owner, coOwner, 'member'),
          t.setRole(coOwner, t.owner, 'member'),
        ]);
        return { t, coOwner, a, b };
      }),
    );
    for (const { t, coOwner, a, b } of races) {
      expect(await ownersIn(t.teamId)).toBe(1);
      // One demotion went through; the other was refused (the last owner, or no longer an owner).
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const remaining = a.status === 200 ? t.owner : coOwner;
      expect(await t.roleOf(remaining)).toBe('owner');
    }
  });

  it('[TEAM-4] answers 404 NOT_FOUND alike for an unknown user id, a user of another team and a user in no team', async () => {
    const t = await team();
    const elsewhere = await h.signUp('elsewhere');
    const { teamId: otherTeam } = await h.teamOf(elsewhere);
    const loner = await h.signUp('loner');
    const unknown = await t.as(t.owner).put('/api/team/role', { userId: randomUUID(), role: 'admin' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    for (const person of [elsewhere, loner]) {
      const res = await t.setRole(t.owner, person, 'admin');
      expect([res.status, res.body], person.user.name).toEqual([unknown.status, unknown.body]);
    }
    expect(await roleIn(otherTeam, elsewhere)).toBe('owner');
    expect(await roleIn(t.teamId, loner)).toBeNull();
  });

  it('[TEAM-4] refuses a role that does not exist (400 naming role) and a malformed body, naming each field', async () => {
    const t = await team();
    const badRole = await t.as(t.owner).put('/api/team/role', { userId: t.member.user.id, role: 'superuser' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toMatchObject({
      code: 'INVALID_BODY',
      details: [{ path: 'role', message: expect.any(String) }],
    });
    const badBody = await t.as(t.owner).put('/api/team/role', { userId: 'someone', admin: true });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['admin', 'role', 'userId']);
    expect(await t.roleOf(t.member)).toBe('member');
  });
});

describe('GET /api/team/members', () => {
  it('shows every member, even a plain member, the members with roles: owners, then admins, then members', async () => {
    const t = await team();
    const expected = {
      members: [memberView(t.owner, 'owner'), memberView(t.admin, 'admin'), memberView(t.member, 'member')],
      has_more: false,
      next_cursor: null,
      prev_cursor: null,
    };
    for (const person of [t.member, t.admin, t.owner]) {
      const res = await t.as(person).get('/api/team/members');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
  });
});

describe('adding a person: only by an invitation they accept', () => {
  /** An invitation answer with what differs between any two sends taken out. */
  const masked = (body: { invitation: Record<string, unknown> }) => ({
    invitation: { ...body.invitation, id: 'ID', email: 'EMAIL', createdAt: 'T', expiresAt: 'T', lastSentAt: 'T' },
  });

  it('[issue 33 finding 3] POST /api/team/members adds no one, with or without an account: 405', async () => {
    const t = await team();
    const person = await h.signUp('not-consenting');
    const before = await t.roles();
    const withAccount = await t.as(t.owner).post('/api/team/members', { email: person.email, role: 'admin' });
    const without = await t.as(t.owner).post('/api/team/members', { email: `nobody-${randomUUID()}@example.test` });
    for (const res of [withAccount, without]) {
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    expect(withAccount.body).toEqual(without.body);
    expect(await t.roles()).toEqual(before);
    expect(await t.roleOf(person)).toBeNull();
  });

  it('[issue 33 finding 3] an invitation answers alike whether the email has an account, and names no one invited', async () => {
    const t = await team();
    const person = await h.signUp('has-account');
    const withAccount = await t.as(t.admin).post('/api/team/invitations', { email: person.email, role: 'member' });
    const without = await t.as(t.admin).post('/api/team/invitations', {
      email: `nobody-${randomUUID()}@example.test`,
      role: 'member',
    });
    expect(withAccount.status).toBe(201);
    expect(without.status).toBe(201);
    expect(masked(withAccount.body)).toEqual(masked(without.body));
    expect(Object.keys(withAccount.body.invitation)).not.toContain('name');
    expect(JSON.stringify(withAccount.body)).not.toContain(person.user.id);
    // Not a member until they accept.
    expect(await t.roleOf(person)).toBeNull();
  });
});

describe('DELETE /api/team/members/{userId}', () => {
  it('an admin removes a member or another admin (204); they leave the list', async () => {
    const t = await team([{ label: 'other-admin', role: 'admin' }]);
    const otherAdmin = t.extra[0] as SignedUp;
    for (const person of [t.member, otherAdmin]) {
      const res = await t.as(t.admin).delete(`/api/team/members/${person.user.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await t.roleOf(person)).toBeNull();
    }
    const listed = await t.as(t.admin).get('/api/team/members');
    expect(listed.body.members.map((m: { userId: string }) => m.userId)).toEqual([t.owner.user.id, t.admin.user.id]);
  });

  it('[TEAM-4] an admin cannot remove an owner (403), even with another owner left', async () => {
    const t = await team([{ label: 'co-owner', role: 'owner' }]);
    const before = await t.roles();
    for (const target of [t.owner, ...t.extra]) {
      const res = await t.as(t.admin).delete(`/api/team/members/${target.user.id}`);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect(await t.roles()).toEqual(before);
  });

  it('[TEAM-4] the last owner cannot be removed (409 LAST_OWNER); with two owners one removes the other', async () => {
    const t = await team();
    const last = await t.as(t.owner).delete(`/api/team/members/${t.owner.user.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('LAST_OWNER');
    expect(await t.roleOf(t.owner)).toBe('owner');

    const coOwner = await h.signUp('co-owner');
    await addMember(h.db, {
      teamId: t.teamId,
      actor: { userId: t.owner.user.id, role: 'owner' },
      email: coOwner.email,
      role: 'owner',
    });
    expect((await t.as(coOwner).delete(`/api/team/members/${t.owner.user.id}`)).status).toBe(204);
    expect(await t.roleOf(t.owner)).toBeNull();
    expect(await ownersIn(t.teamId)).toBe(1);
  });

  it('a member removes no one: 403 FORBIDDEN', async () => {
    const t = await team();
    const before = await t.roles();
    for (const target of [t.admin, t.member]) {
      const res = await t.as(t.member).delete(`/api/team/members/${target.user.id}`);
      expect(res.status).toBe(403);
    }
    expect(await t.roles()).toEqual(before);
  });

  it('answers 404 alike for a user id that is not a UUID, unknown, or of another team', async () => {
    const t = await team();
    const elsewhere = await h.signUp('elsewhere');
    const { teamId: otherTeam } = await h.teamOf(elsewhere);
    const unknown = await t.as(t.owner).delete(`/api/team/members/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    for (const id of ['not-a-uuid', elsewhere.user.id]) {
      const res = await t.as(t.owner).delete(`/api/team/members/${id}`);
      expect([res.status, res.body], id).toEqual([unknown.status, unknown.body]);
    }
    expect(await roleIn(otherTeam, elsewhere)).toBe('owner');
  });
});

describe('POST /api/team/leave', () => {
  it('a member leaves (204), then gets 404 for the team via X-Team-Id, like a team that does not exist', async () => {
    const t = await team();
    // The browser's way: the session cookie, from the console's own origin.
    const left = await request(h.app)
      .post('/api/team/leave')
      .set('Cookie', t.member.cookie)
      .set('Origin', CONSOLE_ORIGIN);
    expect(left.status).toBe(204);
    expect(await t.roleOf(t.member)).toBeNull();
    const after = await t.as(t.member).get('/api/team');
    expect([after.status, after.body]).toEqual([404, await noSuchTeam(t.member)]);
    expect((await t.as(t.owner).get('/api/team/members')).body.members).toHaveLength(2);
  });

  it('[TEAM-4] the only owner cannot leave (409 LAST_OWNER); an owner with a co-owner can', async () => {
    const t = await team();
    const only = await t.as(t.owner).post('/api/team/leave');
    expect(only.status).toBe(409);
    expect(only.body.error.code).toBe('LAST_OWNER');
    expect(await t.roleOf(t.owner)).toBe('owner');

    expect((await t.setRole(t.owner, t.admin, 'owner')).status).toBe(200);
    expect((await t.as(t.owner).post('/api/team/leave')).status).toBe(204);
    expect(await t.roleOf(t.owner)).toBeNull();
    expect(await t.roleOf(t.admin)).toBe('owner');
  });
});

describe('a removed member', () => {
  it('reaches the team from none of their sessions, however they name it, and can change nothing in it', async () => {
    const t = await team();
    const { teamId: ownTeam } = await h.teamOf(t.admin);
    // A second session that selected the team, as the dashboard does.
    const signIn = await request(h.app)
      .post('/api/auth/sign-in')
      .send({ email: t.admin.email, password: TEST_PASSWORD });
    const second = signIn.body.token as string;
    expect((await h.as(second).put('/api/session/team', { teamId: t.teamId })).status).toBe(200);
    expect((await h.as(second).get('/api/team')).body.team.id).toBe(t.teamId);

    expect((await t.as(t.owner).delete(`/api/team/members/${t.admin.user.id}`)).status).toBe(204);

    const missing = await noSuchTeam(t.admin);
    for (const token of [t.admin.token, second]) {
      const read = await h.as(token, t.teamId).get('/api/team');
      expect([read.status, read.body]).toEqual([404, missing]);
    }
    const byCookie = await request(h.app).get('/api/team').set('Cookie', t.admin.cookie).set('X-Team-Id', t.teamId);
    expect([byCookie.status, byCookie.body]).toEqual([404, missing]);
    // The session that had selected the team now acts on the only team they have left.
    const selected = await h.as(second).get('/api/team');
    expect(selected.body.team.id).toBe(ownTeam);
    const me = await h.as(second).get('/api/me');
    expect(me.body.teams.map((team: { id: string }) => team.id)).toEqual([ownTeam]);
    expect(me.body.currentTeamId).toBe(ownTeam);

    // Their former admin powers are gone too.
    const before = await t.roles();
    const outsider = await h.signUp('outsider');
    const add = await h.as(second, t.teamId).post('/api/team/invitations', { email: outsider.email });
    const remove = await h.as(second, t.teamId).delete(`/api/team/members/${t.member.user.id}`);
    expect([add.status, remove.status]).toEqual([404, 404]);
    expect(await t.roles()).toEqual(before);
  });
});
