import { OperationError } from '@vt/contracts/console';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { changeRole, removeMember } from './members.ts';

// Member operations judge the actor by their role under the team's lock, not by the role their
// request started with: an owner demoted while their request waited acts as what they are now.

const db = testDb();

async function team() {
  const slug = uniqueSlug('members');
  const [a, b, c] = await Promise.all(
    ['a', 'b', 'c'].map((n) => db.user.create({ data: { email: `${n}-${slug}@example.test`, name: n } })),
  );
  const created = await db.team.create({
    data: {
      name: slug,
      slug,
      memberships: {
        create: [
          { userId: a!.id, role: 'owner' },
          { userId: b!.id, role: 'owner' },
          { userId: c!.id, role: 'member' },
        ],
      },
    },
  });
  return { teamId: created.id, a: a!.id, b: b!.id, c: c!.id };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'done',
    (err: unknown) => (err instanceof OperationError ? err.code : 'other'),
  );

describe('member operations', () => {
  it('[TEAM-4] refuse an actor whose owner role was taken away while their request waited', async () => {
    const t = await team();
    await changeRole(db, { teamId: t.teamId, actor: { userId: t.b, role: 'owner' }, userId: t.a, role: 'admin' });
    // a's request was authorised as an owner before the change; under the lock a is an admin now.
    const stale = { userId: t.a, role: 'owner' as const };
    expect(await codeOf(changeRole(db, { teamId: t.teamId, actor: stale, userId: t.c, role: 'owner' }))).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(removeMember(db, { teamId: t.teamId, actor: stale, userId: t.b }))).toBe('FORBIDDEN');
    const roles = await db.membership.findMany({ where: { teamId: t.teamId }, orderBy: { role: 'asc' } });
    expect(roles.map((m) => m.role).sort()).toEqual(['admin', 'member', 'owner']);
  });

  it('refuse an actor who is no longer a member at all', async () => {
    const t = await team();
    await removeMember(db, { teamId: t.teamId, actor: { userId: t.b, role: 'owner' }, userId: t.a });
    const code = await codeOf(
      changeRole(db, { teamId: t.teamId, actor: { userId: t.a, role: 'owner' }, userId: t.c, role: 'admin' }),
    );
    expect(code).toBe('NOT_FOUND');
  });
});
