import { createHash } from 'node:crypto';
import { z } from 'zod';

// Web Bot Auth key directories (`/.well-known/http-message-signatures-directory`, a JWK set) and
// the `Signature-Agent` header that names one. Only Ed25519 keys are kept: the algorithm the
// drafts and every signing agent today use. A key's id is its RFC 7638 JWK thumbprint, as the
// drafts define `keyid`.

const ed25519Jwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** A key as kept: its id and the public JWK (`{kty: 'OKP', crv: 'Ed25519', x}`). */
const directoryKeySchema = z.object({ keyid: z.string(), jwk: ed25519Jwk });
export type DirectoryKey = z.infer<typeof directoryKeySchema>;

/** The keys of a directory as `ops crawlers refresh` stored them (a JSON column), read back. */
export const storedDirectoryKeys = z.array(directoryKeySchema);
const keyDirectorySchema = z.object({ keys: z.array(z.unknown()).max(100) });

/** RFC 7638: SHA-256 of the key's required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: DirectoryKey['jwk']): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The Ed25519 keys of a key directory; throws when it holds none (an empty set would verify nothing). */
export function parseKeyDirectory(json: unknown): DirectoryKey[] {
  const { keys } = keyDirectorySchema.parse(json);
  const found = keys.flatMap((key) => {
    const parsed = ed25519Jwk.safeParse(key);
    return parsed.success
      ? [{ keyid: jwkThumbprint(parsed.data), jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: parsed.data.x } }]
      : [];
  });
  if (found.length === 0) throw new Error('no Ed25519 key in the directory');
  return found;
}

/**
 * The origin a `Signature-Agent` header names: the structured-field string of the drafts
 * (`"https://chatgpt.com"`), the dictionary of later ones (`sig1="https://chatgpt.com"`: the first
 * member), or a bare URL. Null for anything that is not an https URL.
 */
export function signatureAgentOrigin(header: string): string | null {
  const quoted = /"([^"]*)"/.exec(header)?.[1];
  const candidate = (quoted ?? header).trim();
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
