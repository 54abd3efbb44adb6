import type { Member, Role } from './api.ts';

// The console API's role rules (TEAM-4), mirrored so the UI can show a control that would be
// refused as disabled, with the reason, instead of letting a click fail. The API still decides.

const MANAGE = 'Only owners and admins change members.';
const OWNER_ONLY = 'Only an owner can grant or remove the owner role.';
const LAST_OWNER = 'A team keeps at least one owner: make someone else owner first.';

/** Why `actor` may not give `target` the role `to`; null when it may. */
export function roleChangeRefusal(actor: Role, target: Member, to: Role, owners: number): string | null {
  if (actor === 'member') return MANAGE;
  if ((target.role === 'owner' || to === 'owner') && target.role !== to && actor !== 'owner') return OWNER_ONLY;
  if (target.role === 'owner' && to !== 'owner' && owners <= 1) return LAST_OWNER;
  return null;
}

/** Why `actor` may not remove `target` (or, for themselves, leave); null when they may. */
export function removalRefusal(actor: Role, target: Member, owners: number, isSelf: boolean): string | null {
  if (!isSelf && actor === 'member') return MANAGE;
  if (!isSelf && target.role === 'owner' && actor !== 'owner') return OWNER_ONLY;
  if (target.role === 'owner' && owners <= 1) return LAST_OWNER;
  return null;
}
