import { lastOwnerRefusal, roleChangeRefusal } from '@vt/contracts/role-rules';
import type { Member, Role } from './console-types.ts';

// The console API's role rules (TEAM-4), the same functions the accounts package enforces, so the
// UI shows a control that would be refused as disabled, with the reason, instead of letting a
// click fail. The API still decides.

/** Why `actor` may not give `target` the role `to`; null when it may. */
export function roleChangeReason(actor: Role, target: Member, to: Role, owners: number): string | null {
  return roleChangeRefusal(actor, target.role, to) ?? lastOwnerRefusal(owners, target.role, to);
}

/** Why `actor` may not remove `target` (or, for themselves, leave); null when they may. */
export function removalReason(actor: Role, target: Member, owners: number, isSelf: boolean): string | null {
  // Leaving needs no role; only the last-owner rule holds.
  return (isSelf ? null : roleChangeRefusal(actor, target.role, null)) ?? lastOwnerRefusal(owners, target.role, null);
}
