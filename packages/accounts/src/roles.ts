import {
  canManageTeam,
  lastOwnerRefusal,
  OperationError,
  ROLE_REFUSALS,
  roleChangeRefusal,
  type TeamRole,
} from '@vt/contracts/console';

// Who may change whom (TEAM-4): the rules are in @vt/contracts/console (the web UI shows them too);
// here they are enforced, as FORBIDDEN and LAST_OWNER.

export { canManageTeam };

export function assertCanManage(actorRole: TeamRole): void {
  if (!canManageTeam(actorRole)) throw new OperationError('FORBIDDEN', ROLE_REFUSALS.manage);
}

/** Throws unless `actorRole` may move someone from `from` (null: not yet a member) to `to` (null: out). */
export function assertRoleChange(actorRole: TeamRole, from: TeamRole | null, to: TeamRole | null): void {
  const refusal = roleChangeRefusal(actorRole, from, to);
  if (refusal) throw new OperationError('FORBIDDEN', refusal);
}

/** Throws when a change would leave the team without an owner. */
export function assertOwnerRemains(ownerCount: number, from: TeamRole, to: TeamRole | null): void {
  const refusal = lastOwnerRefusal(ownerCount, from, to);
  if (refusal) throw new OperationError('LAST_OWNER', refusal);
}
