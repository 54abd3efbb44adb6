import {
  INVITATION_TTL_DAYS,
  type InvitationState,
  OperationError,
  roleChangeRefusal,
  type TeamRole,
} from '@vt/contracts/console';
import { generateInvitationToken, hashInvitationToken, isWellFormedInvitationToken } from '@vt/credentials';
import { Prisma, type PrismaClient } from '@vt/db';
import { enqueueEmail, InvalidEmailError } from '@vt/mail';
import {
  beyondCursor,
  cursorPage,
  inPageOrder,
  isoInstant,
  type Page,
  pageOrder,
  type SortColumn,
} from '@vt/read-model';
import { invitationEmail, invitationLink } from './invitation-email.ts';
import { type Actor, currentRole, withTeamLocked } from './members.ts';
import type { SessionUser } from './sessions.ts';

type Tx = Prisma.TransactionClient;

const TTL_MS = INVITATION_TTL_DAYS * 86_400_000;

export interface InvitationView {
  id: string;
  email: string;
  role: TeamRole;
  state: InvitationState;
  invitedBy: { name: string; email: string } | null;
  createdAt: string;
  expiresAt: string;
  lastSentAt: string;
  sendCount: number;
}

/** What one send (an invitation or a resend) did: the invitation, and its email to wake the sender for. */
export interface SentInvitation {
  invitation: InvitationView;
  emailId: string;
}

type InvitationRow = Prisma.TeamInvitationGetPayload<{ include: typeof inviterInclude }>;
const inviterInclude = { invitedBy: { select: { name: true, email: true } } } as const;

/** Where an invitation stands at `now`: accepted and revoked are final; past its expiry a pending one is expired. */
export function invitationState(
  row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): InvitationState {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt <= now ? 'expired' : 'pending';
}

function invitationView(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    state: invitationState(row, now),
    invitedBy: row.invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastSentAt: row.lastSentAt.toISOString(),
    sendCount: row.sendCount,
  };
}

function assertMayInviteAs(actorRole: TeamRole, role: TeamRole): void {
  const refusal = roleChangeRefusal(actorRole, null, role);
  if (refusal) throw new OperationError('FORBIDDEN', refusal);
}

const noSuchInvitation = () => new OperationError('NOT_FOUND', 'No open invitation of this team has that id.');

const INVITATION_ORDER: SortColumn[] = [
  { column: 'created_at', descending: true, type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
];

/** A page of the open invitations (not accepted or revoked: pending, and expired ones to resend), newest first. */
export async function listInvitations(db: PrismaClient, teamId: string, now: Date, page: Page) {
  const read = await db.$queryRaw<{ id: string; created_at: Date }[]>(Prisma.sql`
    SELECT id, created_at FROM team_invitations
    WHERE team_id = ${teamId}::uuid AND accepted_at IS NULL AND revoked_at IS NULL
      AND ${beyondCursor(INVITATION_ORDER, page)}
    ${pageOrder(INVITATION_ORDER, page)}`);
  const { rows, ...cursors } = cursorPage(read, page, (row) => [isoInstant(row.created_at), row.id]);
  const found = await db.teamInvitation.findMany({
    where: { id: { in: rows.map((row) => row.id) } },
    include: inviterInclude,
  });
  return { invitations: inPageOrder(rows, found).map((row) => invitationView(row, now)), ...cursors };
}

interface SendContext {
  consolePublicUrl: string;
  now: Date;
}

/**
 * Stores the email of this send, in the caller's transaction, so the invitation and its email
 * commit together or not at all.
 */
async function queueInvitationEmail(tx: Tx, row: InvitationRow, token: string, ctx: SendContext): Promise<string> {
  const team = await tx.team.findUniqueOrThrow({ where: { id: row.teamId }, select: { name: true } });
  try {
    const { id } = await enqueueEmail(
      tx,
      invitationEmail({
        teamId: row.teamId,
        invitationId: row.id,
        sendNumber: row.sendCount,
        to: row.email,
        teamName: team.name,
        inviterName: row.invitedBy?.name ?? null,
        role: row.role,
        link: invitationLink(ctx.consolePublicUrl, token),
        expiresAt: row.expiresAt,
      }),
    );
    return id;
  } catch (err) {
    // The body's schema takes what the outbox does; should the two ever disagree, the caller
    // hears about their input, and the transaction leaves nothing behind.
    if (err instanceof InvalidEmailError) throw new OperationError('INVALID_BODY', err.message);
    throw err;
  }
}

/**
 * Invites `email` to the team with `role`, the actor's role read under the team's lock (only an
 * owner invites an owner). An address already in the team is refused (409 ALREADY_MEMBER). An
 * address with an open invitation gets that one again (a new link, the role asked, another
 * week): whoever invites twice wants the person in, and a second row would only be a second
 * link to revoke.
 */
export async function inviteMember(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; email: string; role: TeamRole } & SendContext,
): Promise<SentInvitation> {
  return withTeamLocked(db, input.teamId, async (tx) => {
    const actorRole = await currentRole(tx, input.teamId, input.actor);
    assertMayInviteAs(actorRole, input.role);
    const member = await tx.membership.findFirst({
      where: { teamId: input.teamId, user: { email: input.email } },
      select: { role: true },
    });
    if (member) throw new OperationError('ALREADY_MEMBER', `${input.email} is already a ${member.role} of this team.`);
    const open = await tx.teamInvitation.findFirst({
      where: { teamId: input.teamId, email: input.email, acceptedAt: null, revokedAt: null },
      select: { id: true, role: true },
    });
    // Changing an open invitation's role is a role change: an admin may not touch an owner's.
    if (open) assertMayInviteAs(actorRole, open.role);
    const { token, hash } = generateInvitationToken();
    const invitedById = 'userId' in input.actor ? input.actor.userId : null;
    const expiresAt = new Date(input.now.getTime() + TTL_MS);
    const row = open
      ? await tx.teamInvitation.update({
          where: { id: open.id },
          data: {
            role: input.role,
            tokenHash: hash,
            invitedById,
            expiresAt,
            lastSentAt: input.now,
            sendCount: { increment: 1 },
          },
          include: inviterInclude,
        })
      : await tx.teamInvitation.create({
          data: {
            teamId: input.teamId,
            email: input.email,
            role: input.role,
            tokenHash: hash,
            invitedById,
            createdAt: input.now,
            expiresAt,
            lastSentAt: input.now,
          },
          include: inviterInclude,
        });
    const emailId = await queueInvitationEmail(tx, row, token, input);
    return { invitation: invitationView(row, input.now), emailId };
  });
}

async function openInvitationOrNotFound(tx: Tx, teamId: string, invitationId: string) {
  const row = await tx.teamInvitation.findFirst({
    where: { id: invitationId, teamId, acceptedAt: null, revokedAt: null },
    include: inviterInclude,
  });
  if (!row) throw noSuchInvitation();
  return row;
}

/**
 * Sends an open invitation again with a new link, good for another week; the old link stops
 * working. Only the link's hash is kept, so the old link could not be sent again anyway, and a
 * link that may have gone astray is better dead.
 */
export async function resendInvitation(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; invitationId: string } & SendContext,
): Promise<SentInvitation> {
  return withTeamLocked(db, input.teamId, async (tx) => {
    const actorRole = await currentRole(tx, input.teamId, input.actor);
    const open = await openInvitationOrNotFound(tx, input.teamId, input.invitationId);
    assertMayInviteAs(actorRole, open.role);
    const { token, hash } = generateInvitationToken();
    const row = await tx.teamInvitation.update({
      where: { id: open.id },
      data: {
        tokenHash: hash,
        expiresAt: new Date(input.now.getTime() + TTL_MS),
        lastSentAt: input.now,
        sendCount: { increment: 1 },
      },
      include: inviterInclude,
    });
    const emailId = await queueInvitationEmail(tx, row, token, input);
    return { invitation: invitationView(row, input.now), emailId };
  });
}

/** Withdraws an open invitation: its link stops working at once. Only an owner withdraws an owner's. */
export async function revokeInvitation(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; invitationId: string; now: Date },
): Promise<InvitationView> {
  return withTeamLocked(db, input.teamId, async (tx) => {
    const actorRole = await currentRole(tx, input.teamId, input.actor);
    const open = await openInvitationOrNotFound(tx, input.teamId, input.invitationId);
    assertMayInviteAs(actorRole, open.role);
    const row = await tx.teamInvitation.update({
      where: { id: open.id },
      data: { revokedAt: input.now },
      include: inviterInclude,
    });
    return invitationView(row, input.now);
  });
}

const unknownLink = () =>
  new OperationError('NOT_FOUND', 'This invitation link is not valid: it may be mistyped, or a newer one was sent.');

async function invitationByToken(db: PrismaClient | Tx, token: string) {
  // A malformed token costs no query; a well-formed one is looked up by its hash, as sessions are.
  if (!isWellFormedInvitationToken(token)) throw unknownLink();
  const row = await db.teamInvitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    include: { ...inviterInclude, team: { select: { name: true } } },
  });
  if (!row) throw unknownLink();
  return row;
}

/** What a link is for, shown to whoever holds it before they sign up or in. */
export async function peekInvitation(db: PrismaClient, token: string, now: Date) {
  const row = await invitationByToken(db, token);
  return {
    teamName: row.team.name,
    invitedBy: row.invitedBy,
    role: row.role,
    email: row.email,
    state: invitationState(row, now),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The signed-in `user` joins the invitation's team with its role. Their email must be the one
 * invited: the link proves only that its holder reads that mailbox, and a forwarded link must
 * not let another account in. A second acceptance changes nothing and says so (`joined: false`);
 * someone already in the team keeps the role they have.
 */
export async function acceptInvitation(
  db: PrismaClient,
  input: { token: string; user: SessionUser; now: Date },
): Promise<{ teamId: string; teamName: string; role: TeamRole; joined: boolean }> {
  const found = await invitationByToken(db, input.token);
  return withTeamLocked(db, found.teamId, async (tx) => {
    // Read again under the team's lock: a revocation or a resend may have landed meanwhile.
    const row = await invitationByToken(tx, input.token);
    const state = invitationState(row, input.now);
    if (state === 'revoked') {
      throw new OperationError('INVITATION_REVOKED', `This invitation to ${row.team.name} was withdrawn.`);
    }
    if (state === 'expired') {
      throw new OperationError(
        'INVITATION_EXPIRED',
        `This invitation to ${row.team.name} expired; ask whoever sent it to send it again.`,
      );
    }
    if (input.user.email !== row.email) {
      throw new OperationError(
        'INVITATION_FOR_ANOTHER_EMAIL',
        `This invitation is for ${row.email}; you are signed in as ${input.user.email}. Sign in with ${row.email} to accept it.`,
      );
    }
    const membership = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: row.teamId, userId: input.user.id } },
      select: { role: true },
    });
    const answer = { teamId: row.teamId, teamName: row.team.name };
    if (state === 'accepted') return { ...answer, role: membership?.role ?? row.role, joined: false };
    await tx.teamInvitation.update({
      where: { id: row.id },
      data: { acceptedAt: input.now, acceptedById: input.user.id },
    });
    if (membership) return { ...answer, role: membership.role, joined: false };
    await tx.membership.create({ data: { teamId: row.teamId, userId: input.user.id, role: row.role } });
    return { ...answer, role: row.role, joined: true };
  });
}
