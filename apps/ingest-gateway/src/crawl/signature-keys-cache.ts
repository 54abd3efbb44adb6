import { storedDirectoryKeys } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { type ReloadingValue, reloadingValue } from './reloading-value.ts';
import { createSignatureVerifier, noSignatureKeys, type SignatureVerifier } from './signature-verifier.ts';

export type SignatureKeysCache = ReloadingValue<SignatureVerifier>;

/**
 * The Web Bot Auth key directories `ops crawlers refresh` stored, reloaded on the IP ranges'
 * interval so every replica verifies against the same keys. Until the first load (or if it fails)
 * nothing verifies: a signed request is kept as its agent, unverified.
 */
export function loadSignatureKeysCache(
  db: PrismaClient,
  logger: Logger,
  refreshMs: number,
): Promise<SignatureKeysCache> {
  return reloadingValue({
    initial: noSignatureKeys,
    load: async () => {
      const rows = await db.signatureKeyDirectory.findMany({ select: { origin: true, keys: true } });
      // Parsed, not cast: a row that is not what `ops crawlers refresh` writes fails the load,
      // which keeps the keys loaded before and logs why.
      return createSignatureVerifier(rows.map((r) => ({ origin: r.origin, keys: storedDirectoryKeys.parse(r.keys) })));
    },
    refreshMs,
    logger,
    what: 'the Web Bot Auth key directories',
  });
}
