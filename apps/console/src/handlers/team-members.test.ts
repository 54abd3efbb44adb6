import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Roles (TEAM-4) and the members around them: who may change whom, the last owner, adding by
// email, removing, leaving, and what a removed member can still reach (nothing).

const h = createConsoleHarness();
afterAll(() => h.close());

type Role = 'owner' | 'admin' | 'member';

/** A team with an owner, an admin and a member, and a way to read a member's role back. */
async function team() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const roleOf = async (person: SignedUp) =>
    (await h.db.membership.findUnique({ where: { teamId_userId: { teamId, userId: person.user.id } } }))?.role ?? null;
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const setRole = (actor: SignedUp, target: SignedUp, role: Role) =>
    as(actor).put('/api/team/role', { userId: target.user.id, role });
  return { teamId, owner, admin, member, roleOf, as, setRole };
}

describe('roles', () => {
  it('[TEAM-4] an admin moves people between member and admin', async () => {
    const t = await team();
    const up = await t.setRole(t.admin, t.member, 'admin');
    expect(up.status).toBe(200);
    expect(up.body.member).toMatchObject({ userId: t.member.user.id, role: 'admin' });
    expect(await t.roleOf(t.member)).toBe('admin');
    expect((await t.setRole(t.admin, t.member, 'member')).status).toBe(200);
    expect(await t.roleOf(t.member)).toBe('member');
  });

  it('[TEAM-4] a member changes no role: 403, and nothing changes', async () => {
    const t = await team();
    const res = await t.setRole(t.member, t.member, 'admin');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(await t.roleOf(t.member)).toBe('member');
  });

  it('[TEAM-4] only an owner grants or removes the owner role', async () => {
    const t = await team();
    expect((await t.setRole(t.admin, t.member, 'owner')).status).toBe(403);
    expect((await t.setRole(t.admin, t.admin, 'owner')).status).toBe(403);
    expect((await t.setRole(t.owner, t.admin, 'owner')).status).toBe(200);
    expect(await t.roleOf(t.admin)).toBe('owner');
    const demoteByMember = await t.setRole(t.member, t.owner, 'member');
    expect(demoteByMember.status).toBe(403);
    // Now two owners: one may demote the other.
    expect((await t.setRole(t.admin, t.owner, 'admin')).status).toBe(200);
    expect(await t.roleOf(t.owner)).toBe('admin');
  });

  it('[TEAM-4] never demotes the last owner (409 LAST_OWNER), not even the owner themselves', async () => {
    const t = await team();
    const res = await t.setRole(t.owner, t.owner, 'admin');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('LAST_OWNER');
    expect(await t.roleOf(t.owner)).toBe('owner');
  });

  it('[TEAM-4] leaves exactly one owner when two owners demote each other at the same moment', async () => {
    const t = await team();
    await t.setRole(t.owner, t.admin, 'owner');
    const [a, b] = await Promise.all([t.setRole(t.owner, t.admin, 'member'), t.setRole(t.admin, t.owner, 'member')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await h.db.membership.count({ where: { teamId: t.teamId, role: 'owner' } })).toBe(1);
  });

  it('[TEAM-4] answers 404 for a user who is not a member and 400 for a role that does not exist', async () => {
    const t = await team();
    const stranger = await h.signUp('stranger');
    const notMember = await t.setRole(t.owner, stranger, 'admin');
    expect(notMember.status).toBe(404);
    expect(notMember.body.error.code).toBe('NOT_FOUND');
    const badRole = await t.as(t.owner).put('/api/team/role', { userId: t.member.user.id, role: 'superuser' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.details).toEqual([{ path: 'role', message: expect.any(String) }]);
  });
});

describe('members', () => {
  it('lists members with roles to every member', async () => {
    const t = await team();
    const res = await t.as(t.member).get('/api/team/members');
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [t.owner.email, 'owner'],
      [t.admin.email, 'admin'],
      [t.member.email, 'member'],
    ]);
  });

  it('adds a person with an account by email (any case); refuses unknown emails, members already in, and members adding', async () => {
    const t = await team();
    const newcomer = await h.signUp('newcomer');
    const added = await t
      .as(t.admin)
      .post('/api/team/members', { email: newcomer.email.toUpperCase(), role: 'member' });
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ userId: newcomer.user.id, role: 'member' });
    const again = await t.as(t.admin).post('/api/team/members', { email: newcomer.email, role: 'admin' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_MEMBER');
    const unknown = await t.as(t.admin).post('/api/team/members', { email: `nobody-${Date.now()}@example.test` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('USER_NOT_FOUND');
    const byMember = await t.as(t.member).post('/api/team/members', { email: (await h.signUp('x')).email });
    expect(byMember.status).toBe(403);
  });

  it('[TEAM-4] lets only an owner add an owner', async () => {
    const t = await team();
    const a = await h.signUp('would-be-owner');
    expect((await t.as(t.admin).post('/api/team/members', { email: a.email, role: 'owner' })).status).toBe(403);
    expect((await t.as(t.owner).post('/api/team/members', { email: a.email, role: 'owner' })).status).toBe(201);
    expect(await t.roleOf(a)).toBe('owner');
  });

  it('removes a member (204); an admin cannot remove an owner, and the last owner is never removed', async () => {
    const t = await team();
    const removed = await t.as(t.admin).delete(`/api/team/members/${t.member.user.id}`);
    expect(removed.status).toBe(204);
    expect(await t.roleOf(t.member)).toBeNull();
    expect((await t.as(t.admin).delete(`/api/team/members/${t.owner.user.id}`)).status).toBe(403);
    const last = await t.as(t.owner).delete(`/api/team/members/${t.owner.user.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('LAST_OWNER');
    expect((await t.as(t.owner).delete('/api/team/members/not-a-uuid')).status).toBe(404);
    expect((await t.as(t.owner).delete(`/api/team/members/${t.member.user.id}`)).status).toBe(404);
  });

  it('a removed member’s sessions reach the team no more: 404 as for any team not theirs', async () => {
    const t = await team();
    expect((await t.as(t.member).get('/api/team')).status).toBe(200);
    await t.as(t.owner).delete(`/api/team/members/${t.member.user.id}`);
    const after = await t.as(t.member).get('/api/team');
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('NOT_FOUND');
  });

  it('lets a member leave (204), but not the last owner (409)', async () => {
    const t = await team();
    expect((await t.as(t.member).post('/api/team/leave')).status).toBe(204);
    expect(await t.roleOf(t.member)).toBeNull();
    const owner = await t.as(t.owner).post('/api/team/leave');
    expect(owner.status).toBe(409);
    expect(owner.body.error.code).toBe('LAST_OWNER');
    expect(await t.roleOf(t.owner)).toBe('owner');
  });
});
