import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's first recommended
// configuration). The PHC string stored carries its own parameters and salt, so raising them
// later leaves existing hashes verifiable.

export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash of nothing anyone knows, verified when the email is unknown so both paths cost the same. */
let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `passwordHash`. With no hash (unknown email, or a user who has no
 * password yet) a decoy hash is verified anyway and false returned: the answer takes as long, so
 * timing does not tell an unknown email from a wrong password.
 */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hash(`decoy-${Math.random()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // an unreadable stored hash matches nothing
  }
}
