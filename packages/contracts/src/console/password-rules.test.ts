import { describe, expect, it } from 'vitest';
import { passwordSchema } from './fields.ts';
import { weakPasswordReason } from './password-rules.ts';
import { signUpBody } from './requests.ts';

const problemsOf = (password: string) => {
  const parsed = passwordSchema.safeParse(password);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('new passwords: length and a blocklist (NIST SP 800-63B)', () => {
  it('refuses the passwords issue 33 found accepted: ten a, 1234567890 and ten spaces, each saying why', () => {
    expect(problemsOf('aaaaaaaaaa')).toEqual([expect.stringMatching(/repeats one short pattern/)]);
    expect(problemsOf('1234567890')).toEqual([expect.stringMatching(/consecutive characters|common passwords/)]);
    expect(problemsOf(' '.repeat(10))).toEqual(['must not be only spaces']);
  });

  it('refuses common breached passwords whatever their case and spacing', () => {
    for (const common of ['qwertyuiop', 'QwertyUIOP', 'password123', 'Pass Word 123', 'iloveyou12', 'football12']) {
      expect(weakPasswordReason(common), common).toMatch(/most common passwords/);
    }
  });

  it('refuses repeated units and runs up or down', () => {
    for (const weak of ['abcabcabcabc', 'ababababab', '0987654321', 'abcdefghijk', 'zyxwvutsrqp', '1111111111']) {
      expect(weakPasswordReason(weak), weak).not.toBeNull();
    }
  });

  it('accepts passphrases and random passwords, and tells a short one only that it is short', () => {
    for (const good of ['correct horse battery', 'plum tractor 94 lantern', 'gT7#qLx!92vR', '12345-abcde-X']) {
      expect(problemsOf(good), good).toEqual([]);
    }
    expect(problemsOf('aaaa')).toEqual(['must be at least 10 characters']);
  });

  it('sign-up refuses a password that contains the email’s own name, at the password field', () => {
    const parsed = signUpBody.safeParse({ email: 'margaret.h@example.com', password: 'margaret.h-2026!', name: 'M' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ['password'], message: expect.stringMatching(/email address/) }),
    ]);
    expect(
      signUpBody.safeParse({ email: 'margaret.h@example.com', password: 'plum tractor 94', name: 'M' }).success,
    ).toBe(true);
  });
});
