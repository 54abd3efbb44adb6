import { z } from 'zod';
import { emailSchema, roleSchema } from './fields.ts';
import '../errors.ts';
import { cursorPageFields } from '../list-cursor.ts';

// Invitations to join a team by email: what owners and admins send, list, resend and revoke, and
// what the person holding the link sees and accepts.

const timestamp = z.iso.datetime({ offset: true });

/** How long a link stays good after it was (last) sent. */
export const INVITATION_TTL_DAYS = 7;

/**
 * Invitations (sends and resends) per hour: each is an email to someone who did not ask for it,
 * so a compromised or careless account cannot make the deployment a spam relay.
 */
export const INVITATION_LIMIT = { perTeam: 30, perActor: 15, windowSeconds: 3600 } as const;

/** A token is 47 characters; anything far longer is refused before it is hashed. */
const INVITATION_TOKEN_MAX = 200;

/**
 * pending: the link works; accepted: someone joined with it; revoked: an owner or admin withdrew
 * it; expired: not accepted within its days (a resend makes it pending again).
 */
export const invitationStateSchema = z.enum(['pending', 'accepted', 'revoked', 'expired']).openapi({
  description:
    'pending: the link works; accepted: the person joined with it; revoked: withdrawn; expired: not accepted in time (a resend renews it).',
});
export type InvitationState = z.infer<typeof invitationStateSchema>;

export const inviteMemberBody = z
  .strictObject({ email: emailSchema, role: roleSchema.default('member') })
  .openapi('InviteMember');

export const invitationTokenBody = z
  .strictObject({
    token: z
      .string()
      .min(1)
      .max(INVITATION_TOKEN_MAX)
      .openapi({ description: 'The token from the invitation link (`/invite#<token>`).' }),
  })
  .openapi('InvitationToken');

const inviterSchema = z
  .object({ name: z.string(), email: z.string() })
  .nullable()
  .openapi({ description: 'Who sent it; null when their account is gone.' });

/** An invitation as the team's owners and admins see it: never its token. */
export const invitationSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: roleSchema,
    state: invitationStateSchema,
    invitedBy: inviterSchema,
    createdAt: timestamp,
    expiresAt: timestamp,
    lastSentAt: timestamp,
    sendCount: z.number().int().openapi({ description: 'Emails sent for it: the first and each resend.' }),
  })
  .openapi('Invitation');

export const invitationsSchema = z
  .object({
    invitations: z.array(invitationSchema).openapi({
      description: 'Invitations not accepted or revoked (pending, and expired ones that can be resent), newest first.',
    }),
    ...cursorPageFields,
  })
  .openapi('Invitations');

export const invitationAnswerSchema = z.object({ invitation: invitationSchema }).openapi('InvitationAnswer');

/** What the link shows to whoever holds it, signed in or not. */
export const invitationPreviewSchema = z
  .object({
    invitation: z.object({
      teamName: z.string(),
      invitedBy: inviterSchema,
      role: roleSchema,
      email: z.string().openapi({ description: 'The address invited: only an account with it may accept.' }),
      state: invitationStateSchema,
      expiresAt: timestamp,
    }),
  })
  .openapi('InvitationPreview');

export const acceptedInvitationSchema = z
  .object({
    teamId: z.uuid(),
    teamName: z.string(),
    role: roleSchema.openapi({ description: 'The role the person has in the team now.' }),
    joined: z.boolean().openapi({
      description: 'true: this call made them a member; false: the invitation was accepted already (a second click).',
    }),
  })
  .openapi('AcceptedInvitation');
