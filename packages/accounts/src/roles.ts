import { OperationError, type TeamRole } from '@vt/contracts/console';

// Who may change whom (TEAM-4), in one place. Members change nothing; owners and admins manage
// members and roles; only an owner grants or takes away the owner role; the last owner stays.

export const canManageTeam = (role: TeamRole) => role === 'owner' || role === 'admin';

const forbidden = (message: string) => new OperationError('FORBIDDEN', message);

export function assertCanManage(actorRole: TeamRole): void {
  if (!canManageTeam(actorRole)) throw forbidden('Only owners and admins can do this.');
}

/** Throws unless `actorRole` may move someone from `from` (null: not yet a member) to `to` (null: out). */
export function assertRoleChange(actorRole: TeamRole, from: TeamRole | null, to: TeamRole | null): void {
  assertCanManage(actorRole);
  if ((from === 'owner' || to === 'owner') && from !== to && actorRole !== 'owner') {
    throw forbidden('Only an owner can grant or remove the owner role.');
  }
}

/** Throws when a change would leave the team without an owner. */
export function assertOwnerRemains(ownerCount: number, from: TeamRole, to: TeamRole | null): void {
  if (from === 'owner' && to !== 'owner' && ownerCount <= 1) {
    throw new OperationError('LAST_OWNER', 'A team keeps at least one owner: make someone else owner first.');
  }
}
