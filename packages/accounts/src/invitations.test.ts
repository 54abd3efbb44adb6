import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { acceptInvitation, invitationState, inviteMember } from './invitations.ts';

// What the console's tests cannot race: two clicks on one link at once join once, and two
// invitations of one address at once make one invitation (the team's lock, then the partial
// unique index), each send with its own email in the outbox.

const db = testDb();
const now = new Date();
const url = 'https://console.example.test';

async function teamWithOwner() {
  const slug = uniqueSlug('invites');
  const owner = await db.user.create({ data: { email: `owner-${slug}@example.test`, name: 'Owner' } });
  const team = await db.team.create({
    data: { name: slug, slug, memberships: { create: [{ userId: owner.id, role: 'owner' }] } },
  });
  return { teamId: team.id, actor: { userId: owner.id, role: 'owner' as const }, slug };
}

/** The token a send put in its email's link. */
async function tokenOf(emailId: string) {
  const email = await db.outgoingEmail.findUniqueOrThrow({ where: { id: emailId } });
  return /#(vti_[A-Za-z0-9_-]{43})/.exec(email.textBody)?.[1] as string;
}

describe('invitations under concurrency', () => {
  it('two acceptances at once: one joins, the other is told it was accepted already', async () => {
    const t = await teamWithOwner();
    const email = `bo-${t.slug}@example.test`;
    const sent = await inviteMember(db, { ...t, email, role: 'admin', consolePublicUrl: url, now });
    const user = await db.user.create({ data: { email, name: 'Bo' } });
    const token = await tokenOf(sent.emailId);
    const both = await Promise.all([1, 2].map(() => acceptInvitation(db, { token, user, now })));
    expect(both.map((r) => r.joined).sort()).toEqual([false, true]);
    expect(await db.membership.count({ where: { teamId: t.teamId, userId: user.id } })).toBe(1);
  });

  it('two invitations of one address at once: one invitation, two sends, the last link the only one that works', async () => {
    const t = await teamWithOwner();
    const email = `cy-${t.slug}@example.test`;
    const sends = await Promise.all(
      [1, 2].map(() => inviteMember(db, { ...t, email, role: 'member', consolePublicUrl: url, now })),
    );
    expect(new Set(sends.map((s) => s.invitation.id)).size).toBe(1);
    const row = await db.teamInvitation.findFirstOrThrow({ where: { teamId: t.teamId } });
    expect(row.sendCount).toBe(2);
    expect(await db.teamInvitation.count({ where: { teamId: t.teamId } })).toBe(1);
    const emails = await db.outgoingEmail.findMany({ where: { recipient: email }, orderBy: { dedupeKey: 'asc' } });
    expect(emails.map((e) => e.dedupeKey)).toEqual([`invitation:${row.id}:1`, `invitation:${row.id}:2`]);
  });

  it('states: accepted and revoked are final, past its expiry a pending one is expired', () => {
    const at = new Date('2026-11-26T12:00:00Z');
    const later = new Date('2026-12-03T12:00:00Z');
    expect(invitationState({ acceptedAt: null, revokedAt: null, expiresAt: later }, at)).toBe('pending');
    expect(invitationState({ acceptedAt: null, revokedAt: null, expiresAt: later }, later)).toBe('expired');
    expect(invitationState({ acceptedAt: at, revokedAt: null, expiresAt: at }, later)).toBe('accepted');
    expect(invitationState({ acceptedAt: null, revokedAt: at, expiresAt: later }, at)).toBe('revoked');
  });
});
