import type { TeamRole } from './fields.ts';

// Who may change whom (TEAM-4), as plain rules: the accounts package enforces them, the console's
// web UI shows a change they refuse as a disabled control with the same reason. No runtime
// imports, so the UI bundles these lines and nothing else.

export const ROLE_REFUSALS = {
  manage: 'Only owners and admins can do this.',
  ownerOnly: 'Only an owner can grant or remove the owner role.',
  lastOwner: 'A team keeps at least one owner: make someone else owner first.',
} as const;

export const canManageTeam = (role: TeamRole) => role === 'owner' || role === 'admin';

/**
 * Why `actor` may not move someone from `from` (null: not yet a member) to `to` (null: out of the
 * team), the last-owner rule aside; null when it may.
 */
export function roleChangeRefusal(actor: TeamRole, from: TeamRole | null, to: TeamRole | null): string | null {
  if (!canManageTeam(actor)) return ROLE_REFUSALS.manage;
  if ((from === 'owner' || to === 'owner') && from !== to && actor !== 'owner') return ROLE_REFUSALS.ownerOnly;
  return null;
}

/** Why a change would leave the team without an owner; null when one remains. */
export function lastOwnerRefusal(ownerCount: number, from: TeamRole, to: TeamRole | null): string | null {
  return from === 'owner' && to !== 'owner' && ownerCount <= 1 ? ROLE_REFUSALS.lastOwner : null;
}
