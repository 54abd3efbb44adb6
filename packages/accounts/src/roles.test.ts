import { OperationError } from '@vt/contracts/console';
import { describe, expect, it } from 'vitest';
import { assertOwnerRemains, assertRoleChange } from './roles.ts';

// The role rules (TEAM-4) as plain functions: the console's and ops' member operations all run
// through them.

const code = (fn: () => void) => {
  try {
    fn();
    return 'allowed';
  } catch (err) {
    if (err instanceof OperationError) return err.code;
    throw err;
  }
};

describe('role changes', () => {
  it('[TEAM-4] members change nothing; admins move people between member and admin', () => {
    expect(code(() => assertRoleChange('member', 'member', 'admin'))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('member', null, 'member'))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('admin', 'member', 'admin'))).toBe('allowed');
    expect(code(() => assertRoleChange('admin', 'admin', 'member'))).toBe('allowed');
    expect(code(() => assertRoleChange('admin', null, 'admin'))).toBe('allowed');
    expect(code(() => assertRoleChange('admin', 'member', null))).toBe('allowed');
  });

  it('[TEAM-4] only an owner grants or takes away the owner role', () => {
    expect(code(() => assertRoleChange('admin', 'member', 'owner'))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('admin', 'owner', 'admin'))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('admin', 'owner', null))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('admin', null, 'owner'))).toBe('FORBIDDEN');
    expect(code(() => assertRoleChange('owner', 'member', 'owner'))).toBe('allowed');
    expect(code(() => assertRoleChange('owner', 'owner', 'member'))).toBe('allowed');
  });

  it('[TEAM-4] the last owner is never demoted or removed; one of two may be', () => {
    expect(code(() => assertOwnerRemains(1, 'owner', 'admin'))).toBe('LAST_OWNER');
    expect(code(() => assertOwnerRemains(1, 'owner', null))).toBe('LAST_OWNER');
    expect(code(() => assertOwnerRemains(1, 'owner', 'owner'))).toBe('allowed');
    expect(code(() => assertOwnerRemains(2, 'owner', 'member'))).toBe('allowed');
    expect(code(() => assertOwnerRemains(1, 'admin', null))).toBe('allowed');
  });
});
