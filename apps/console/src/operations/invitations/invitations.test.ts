import { randomBytes } from 'node:crypto';
import { INVITATION_TTL_DAYS } from '@vt/contracts/console';
import { type MailCatcher, startMailCatcher } from '@vt/mail-catcher';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverNow } from '../../testing/deliver-now.ts';
import { type ConsoleHarness, createConsoleHarness, type SignedUp, TEST_PASSWORD } from '../../testing/index.ts';

// Invitations by email, end to end against a real SMTP server in process: an owner or admin
// invites an address with a role, the email arrives with a link, and whoever reads it signs up or
// in and joins with that role. Expiry, revocation, a second click and the wrong account are
// answers of their own; members cannot invite, admins cannot invite owners; sends are limited
// per hour; bad addresses are refused before anything is stored.

const h = createConsoleHarness();
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await h.emailQueue.obliterate({ force: true });
  await h.close();
  await catcher.close();
});

const fresh = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;

async function team(harness: ConsoleHarness = h) {
  const owner = await harness.signUp('owner');
  const admin = await harness.signUp('admin');
  const member = await harness.signUp('member');
  const { teamId } = await harness.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => harness.as(person.token, teamId);
  const invite = (by: SignedUp, email: string, role?: string) =>
    as(by).post('/api/team/invitations', role ? { email, role } : { email });
  return { teamId, owner, admin, member, as, invite };
}

/** Sends the invitation's latest email to the catcher as the notifier would, and reads its link. */
async function mailedLink(invitationId: string) {
  const row = await h.db.teamInvitation.findUniqueOrThrow({ where: { id: invitationId } });
  const email = await h.db.outgoingEmail.findUniqueOrThrow({
    where: { dedupeKey: `invitation:${invitationId}:${row.sendCount}` },
  });
  expect(await deliverNow(h.db, catcher.url, email.id)).toEqual({ applied: true });
  const message = await catcher.waitForMessage((m) => m.messageId === `<${email.id}@vt.example>`);
  const link = /https:\/\/\S+\/invite#(vti_[A-Za-z0-9_-]{43})/.exec(message.text);
  expect(link, message.text).not.toBeNull();
  return { message, link: link?.[0] as string, token: link?.[1] as string };
}

const lookup = (token: unknown) => request(h.app).post('/api/invitations/lookup').send({ token });
const accept = (person: { token: string }, token: string) =>
  h.as(person.token).post('/api/invitations/accept', { token });
const roleOf = async (teamId: string, email: string) =>
  (await h.db.membership.findFirst({ where: { teamId, user: { email } } }))?.role ?? null;

describe('an invitation, from the email to the team', () => {
  it('reaches a new person, who follows the link, signs up with the address and is a member with the role', async () => {
    const t = await team();
    const email = fresh('new');
    const res = await t.invite(t.admin, email.toUpperCase(), 'admin');
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ email, role: 'admin', state: 'pending', sendCount: 1 });
    expect(res.body.invitation.invitedBy).toEqual({ name: 'admin', email: t.admin.email });
    const days = (Date.parse(res.body.invitation.expiresAt) - Date.parse(res.body.invitation.createdAt)) / 86_400_000;
    expect(days).toBe(INVITATION_TTL_DAYS);
    // Only the hash is kept; the answer never carries a token.
    expect(JSON.stringify(res.body)).not.toContain('vti_');

    const { message, link, token } = await mailedLink(res.body.invitation.id);
    expect(message.to).toBe(email);
    expect(message.subject).toContain('invited you to');
    expect(message.html).toContain(link);
    expect(link.startsWith('https://console.example.test/invite#')).toBe(true);
    const row = await h.db.teamInvitation.findUniqueOrThrow({ where: { id: res.body.invitation.id } });
    expect(row.tokenHash).not.toContain(token);

    const seen = await lookup(token);
    expect(seen.status).toBe(200);
    expect(seen.body.invitation).toMatchObject({
      email,
      role: 'admin',
      state: 'pending',
      invitedBy: { name: 'admin' },
    });
    expect(seen.body.invitation.teamName).toMatch(/^Team /);

    const signedUp = await request(h.app)
      .post('/api/auth/sign-up')
      .send({ email, password: TEST_PASSWORD, name: 'New' });
    expect(signedUp.status).toBe(201);
    const joined = await accept(signedUp.body, token);
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({
      teamId: t.teamId,
      teamName: seen.body.invitation.teamName,
      role: 'admin',
      joined: true,
    });
    // The session now acts on the team without naming it.
    const members = await h.as(signedUp.body.token).get('/api/team/members');
    expect(members.status).toBe(200);
    expect(members.body.members).toContainEqual(expect.objectContaining({ email, role: 'admin' }));
    expect((await lookup(token)).body.invitation.state).toBe('accepted');
    expect((await t.as(t.owner).get('/api/team/invitations')).body.invitations).toEqual([]);
  });

  it('lets a person with an account sign in and accept; a second click says it is accepted already', async () => {
    const t = await team();
    const person = await h.signUp('existing');
    const res = await t.invite(t.owner, person.email);
    expect(res.body.invitation.role).toBe('member');
    const { token } = await mailedLink(res.body.invitation.id);
    const signedIn = await request(h.app)
      .post('/api/auth/sign-in')
      .send({ email: person.email, password: TEST_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect((await accept(signedIn.body, token)).body).toMatchObject({ role: 'member', joined: true });
    const again = await accept(signedIn.body, token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ teamId: t.teamId, role: 'member', joined: false });
    expect(await h.db.membership.count({ where: { teamId: t.teamId } })).toBe(4);
  });

  it('refuses another account than the one invited (403), and lets nobody in', async () => {
    const t = await team();
    const email = fresh('intended');
    const res = await t.invite(t.owner, email, 'admin');
    const { token } = await mailedLink(res.body.invitation.id);
    const stranger = await h.signUp('forwarded');
    const refused = await accept(stranger, token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INVITATION_FOR_ANOTHER_EMAIL');
    expect(refused.body.error.message).toContain(email);
    expect(await roleOf(t.teamId, stranger.email)).toBeNull();
    expect((await lookup(token)).body.invitation.state).toBe('pending');
  });

  it('an expired link says so (409) until it is resent; the resend’s new link works, the old one is dead', async () => {
    const t = await team();
    const email = fresh('late');
    const res = await t.invite(t.admin, email);
    const first = await mailedLink(res.body.invitation.id);
    await h.db.teamInvitation.update({
      where: { id: res.body.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const person = (
      await request(h.app).post('/api/auth/sign-up').send({ email, password: TEST_PASSWORD, name: 'Late' })
    ).body;
    expect((await lookup(first.token)).body.invitation.state).toBe('expired');
    const expired = await accept(person, first.token);
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('INVITATION_EXPIRED');
    expect((await t.as(t.admin).get('/api/team/invitations')).body.invitations).toMatchObject([{ state: 'expired' }]);

    const resent = await t.as(t.admin).post(`/api/team/invitations/${res.body.invitation.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.invitation).toMatchObject({ state: 'pending', sendCount: 2 });
    const second = await mailedLink(res.body.invitation.id);
    expect(second.token).not.toBe(first.token);
    expect((await lookup(first.token)).status).toBe(404);
    expect((await accept(person, first.token)).status).toBe(404);
    expect((await accept(person, second.token)).body).toMatchObject({ joined: true, role: 'member' });
  });

  it('a revoked link says so (409) and joins nobody; an accepted or revoked one cannot be revoked again (404)', async () => {
    const t = await team();
    const email = fresh('withdrawn');
    const res = await t.invite(t.admin, email);
    const { token } = await mailedLink(res.body.invitation.id);
    const revoked = await t.as(t.admin).delete(`/api/team/invitations/${res.body.invitation.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.invitation.state).toBe('revoked');
    expect((await lookup(token)).body.invitation.state).toBe('revoked');
    const person = (await request(h.app).post('/api/auth/sign-up').send({ email, password: TEST_PASSWORD, name: 'W' }))
      .body;
    const refused = await accept(person, token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('INVITATION_REVOKED');
    expect(await roleOf(t.teamId, email)).toBeNull();
    expect((await t.as(t.admin).delete(`/api/team/invitations/${res.body.invitation.id}`)).status).toBe(404);
    expect((await t.as(t.admin).post(`/api/team/invitations/${res.body.invitation.id}/resend`)).status).toBe(404);
    // Another team's admin reaches nothing of it.
    const other = await team();
    const invited = await t.invite(t.owner, fresh('theirs'));
    expect((await other.as(other.owner).delete(`/api/team/invitations/${invited.body.invitation.id}`)).status).toBe(
      404,
    );
  });

  it('inviting an address with an open invitation sends that one again with the new role; a member’s address is 409', async () => {
    const t = await team();
    const email = fresh('twice');
    const first = await t.invite(t.owner, email, 'member');
    const firstLink = await mailedLink(first.body.invitation.id);
    const second = await t.invite(t.admin, email, 'admin');
    expect(second.status).toBe(201);
    expect(second.body.invitation).toMatchObject({ id: first.body.invitation.id, role: 'admin', sendCount: 2 });
    expect((await lookup(firstLink.token)).status).toBe(404);
    expect(await h.db.teamInvitation.count({ where: { teamId: t.teamId } })).toBe(1);

    const already = await t.invite(t.admin, t.member.email, 'admin');
    expect(already.status).toBe(409);
    expect(already.body.error.code).toBe('ALREADY_MEMBER');
    expect(await h.db.outgoingEmail.count({ where: { recipient: t.member.email, kind: 'invitation' } })).toBe(0);
  });
});

describe('who may invite', () => {
  it('members cannot invite, list, resend or revoke (403), and no email is written', async () => {
    const t = await team();
    const pending = await t.invite(t.owner, fresh('p'));
    const email = fresh('by-member');
    const res = await t.invite(t.member, email);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await t.as(t.member).get('/api/team/invitations')).status).toBe(403);
    expect((await t.as(t.member).post(`/api/team/invitations/${pending.body.invitation.id}/resend`)).status).toBe(403);
    expect((await t.as(t.member).delete(`/api/team/invitations/${pending.body.invitation.id}`)).status).toBe(403);
    expect(await h.db.outgoingEmail.count({ where: { recipient: email } })).toBe(0);
  });

  it('only an owner invites an owner, or resends or revokes an owner’s invitation', async () => {
    const t = await team();
    const email = fresh('boss');
    const refused = await t.invite(t.admin, email, 'owner');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only an owner can grant or remove the owner role.');
    expect(await h.db.teamInvitation.count({ where: { teamId: t.teamId } })).toBe(0);
    const byOwner = await t.invite(t.owner, email, 'owner');
    expect(byOwner.status).toBe(201);
    const id = byOwner.body.invitation.id;
    // Nor may an admin turn the owner's invitation into something else by inviting again.
    expect((await t.invite(t.admin, email, 'member')).status).toBe(403);
    expect((await t.as(t.admin).post(`/api/team/invitations/${id}/resend`)).status).toBe(403);
    expect((await t.as(t.admin).delete(`/api/team/invitations/${id}`)).status).toBe(403);
    expect(await h.db.teamInvitation.findUniqueOrThrow({ where: { id } })).toMatchObject({
      role: 'owner',
      sendCount: 1,
      revokedAt: null,
    });
    const { token } = await mailedLink(id);
    const person = (await request(h.app).post('/api/auth/sign-up').send({ email, password: TEST_PASSWORD, name: 'B' }))
      .body;
    expect((await accept(person, token)).body.role).toBe('owner');
    expect(await roleOf(t.teamId, email)).toBe('owner');
  });
});

describe('bad input', () => {
  it.each([
    ['not an address', 'not-an-email'],
    ['no domain', 'ada@'],
    ['a header break', 'ada@example.com\r\nBcc: all@example.com'],
    ['oversized', `${'a'.repeat(400)}@example.com`],
    ['not a string', 42],
  ])('refuses %s with 400 INVALID_BODY naming the field, storing nothing', async (_label, email) => {
    const t = await team();
    const res = await t.as(t.owner).post('/api/team/invitations', { email });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details[0].path).toBe('email');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    expect(await h.db.teamInvitation.count({ where: { teamId: t.teamId } })).toBe(0);
    expect(await h.db.outgoingEmail.count({ where: { teamId: t.teamId } })).toBe(0);
  });

  it('a role that is not one, or an unknown field, is 400', async () => {
    const t = await team();
    expect((await t.invite(t.owner, fresh('x'), 'superuser')).status).toBe(400);
    expect((await t.as(t.owner).post('/api/team/invitations', { email: fresh('x'), teamId: t.teamId })).status).toBe(
      400,
    );
  });

  it('a made-up, malformed or huge token is a plain 404 or 400, signed in or not', async () => {
    const person = await h.signUp('curious');
    for (const token of [`vti_${'A'.repeat(43)}`, 'nope', '../../etc/passwd']) {
      const seen = await lookup(token);
      expect(seen.status, token).toBe(404);
      expect(seen.body.error.message).toContain('not valid');
      expect((await accept(person, token)).status).toBe(404);
    }
    expect((await lookup('x'.repeat(10_000))).status).toBe(400);
    expect((await lookup(null)).status).toBe(400);
    // Accepting needs a session: the page signs the person up or in first.
    expect((await request(h.app).post('/api/invitations/accept').send({ token: 'nope' })).status).toBe(401);
  });

  it('a hostile team name is escaped in the HTML and kept to one line in the subject', async () => {
    const owner = await h.signUp('owner');
    const slug = `hostile-${randomBytes(4).toString('hex')}`;
    const created = await h.as(owner.token).post('/api/teams', { name: '<img src=x onerror=alert(1)> Acme', slug });
    const teamId = created.body.team.id;
    const res = await h.as(owner.token, teamId).post('/api/team/invitations', { email: fresh('victim') });
    const { message } = await mailedLink(res.body.invitation.id);
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt; Acme');
    expect(message.html).not.toContain('<img');
    expect(message.subject).toBe('owner invited you to <img src=x onerror=alert(1)> Acme on AI Visibility');
  });
});

describe('the hourly limit', () => {
  it('per person: over it, 429 with Retry-After and nothing stored; a refused invitation does not count', async () => {
    const limited = createConsoleHarness({ invitationLimits: { perActor: 2, perTeam: 100 } });
    try {
      const t = await team(limited);
      expect((await t.invite(t.admin, t.member.email)).status).toBe(409); // given back
      expect((await t.invite(t.admin, fresh('one'))).status).toBe(201);
      const second = await t.invite(t.admin, fresh('two'));
      expect(second.status).toBe(201);
      const email = fresh('three');
      const over = await t.invite(t.admin, email);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
      const resend = await t.as(t.admin).post(`/api/team/invitations/${second.body.invitation.id}/resend`);
      expect(resend.status).toBe(429);
      expect(await limited.db.teamInvitation.count({ where: { email } })).toBe(0);
      // Another person of the team still may.
      expect((await t.invite(t.owner, email)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('per team, shared by every console replica (Redis): the team’s next send is refused whoever sends it', async () => {
    const first = createConsoleHarness({ invitationLimits: { perActor: 100, perTeam: 2 } });
    const replica = createConsoleHarness({ prefix: first.prefix, invitationLimits: { perActor: 100, perTeam: 2 } });
    try {
      const t = await team(first);
      expect((await t.invite(t.admin, fresh('a'))).status).toBe(201);
      expect(
        (await replica.as(t.owner.token, t.teamId).post('/api/team/invitations', { email: fresh('b') })).status,
      ).toBe(201);
      const over = await replica.as(t.admin.token, t.teamId).post('/api/team/invitations', { email: fresh('c') });
      expect(over.status).toBe(429);
      expect(over.headers['retry-after']).toBeDefined();
    } finally {
      await first.close();
      await replica.close();
    }
  });
});
