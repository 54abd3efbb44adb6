import { dictionary } from '@zxcvbn-ts/language-common';

// What a new password must not be, beyond its length (NIST SP 800-63B 3.1.1.2): a password from
// lists of common and breached ones, a repeated or sequential run, or the account's own email.
// No composition rules (a digit, a capital): NIST advises against them. The rules apply where a
// password is set (sign-up, `ops user create --password`), never at sign-in, so an account whose
// password predates them keeps working.

/**
 * How a password is compared with the list: case, spaces and look-alike Unicode forms do not
 * make a common password uncommon ("Pass Word" is "password").
 */
export function normalisedPassword(password: string): string {
  return password.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

let commonPasswords: Set<string> | undefined;

/**
 * The 49,233 most common passwords of public breach corpora, most frequent first, as shipped by
 * `@zxcvbn-ts/language-common` (the list zxcvbn's strength estimate uses). Unpacked on first use,
 * not at import: every app imports the contracts, few set passwords.
 */
function isCommonPassword(normalised: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map(normalisedPassword));
  return commonPasswords.has(normalised);
}

/** A whole password of one short unit said again and again: `aaaaaaaaaa`, `abcabcabcabc`. */
const REPEATED_UNIT = /^(.{1,4})\1+$/su;

/** Each character one after the previous one, up or down: `1234567890`, `abcdefghij`, `9876543210`. */
function isSequentialRun(text: string): boolean {
  const codes = [...text].map((c) => c.codePointAt(0) ?? 0);
  const step = (i: number) => {
    const d = (codes[i] ?? 0) - (codes[i - 1] ?? 0);
    // 9 then 0 continues a run of digits up (`1234567890`), as on a keyboard's top row; 0 then 9 one down.
    if (codes[i - 1] === 0x39 && codes[i] === 0x30) return 1;
    if (codes[i - 1] === 0x30 && codes[i] === 0x39) return -1;
    return d;
  };
  const first = step(1);
  if (first !== 1 && first !== -1) return false;
  for (let i = 2; i < codes.length; i++) if (step(i) !== first) return false;
  return true;
}

/**
 * Why `password` may not be used as a new password, as a message that says so (it completes
 * "password …"), or null when it may. `email` adds the account's own address to what is refused.
 */
export function weakPasswordReason(password: string, email?: string): string | null {
  const normalised = normalisedPassword(password);
  if (normalised.length === 0) return 'must not be only spaces';
  if (REPEATED_UNIT.test(normalised)) {
    return 'repeats one short pattern (like aaaaaaaaaa), which is among the first things an attacker tries: choose another';
  }
  if (isSequentialRun(normalised)) {
    return 'is a run of consecutive characters (like 1234567890), which is among the first things an attacker tries: choose another';
  }
  if (isCommonPassword(normalised)) {
    return 'is one of the most common passwords found in data breaches, so attackers try it first: choose another';
  }
  const localPart = email ? normalisedPassword(email.split('@')[0] ?? '') : '';
  if (
    email &&
    (normalised === normalisedPassword(email) || (localPart.length >= 4 && normalised.includes(localPart)))
  ) {
    return 'must not contain your email address, which anyone who knows it would try first: choose another';
  }
  return null;
}
