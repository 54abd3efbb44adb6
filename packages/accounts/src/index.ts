export { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from './api-keys.ts';
export { type CurrentTeam, resolveCurrentTeam } from './current-team.ts';
export { invitationEmail, invitationLink } from './invitation-email.ts';
export {
  acceptInvitation,
  type InvitationView,
  invitationState,
  inviteMember,
  listInvitations,
  peekInvitation,
  resendInvitation,
  revokeInvitation,
  type SentInvitation,
} from './invitations.ts';
export {
  type Actor,
  addMember,
  changeRole,
  leaveTeam,
  listMembers,
  type Member,
  memberPage,
  removeMember,
} from './members.ts';
export { hashPassword, verifyPassword } from './passwords.ts';
export { assertCanManage, canManageTeam } from './roles.ts';
export {
  type ActiveSession,
  endSession,
  findSession,
  rememberSessionTeam,
  type SessionUser,
  type StartedSession,
  startSession,
} from './sessions.ts';
export { checkSlug, createTeam, roleIn, teamDetail, teamsOf, teamView, updateTeam } from './teams.ts';
export { checkCredentials, passwordVersionOf, signUp, upsertUser } from './users.ts';
