import type { DirectoryKey } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { createSignatureVerifier, noSignatureKeys, type SignatureVerifier } from './signature-verifier.ts';

export interface SignatureKeysCache {
  current: () => SignatureVerifier;
  stop: () => void;
}

/**
 * The Web Bot Auth key directories `ops crawlers refresh` stored, reloaded on the IP ranges'
 * interval so every replica verifies against the same keys. Until the first load (or if it fails)
 * nothing verifies: a signed request is kept as its agent, unverified.
 */
export async function loadSignatureKeysCache(
  db: PrismaClient,
  logger: Logger,
  refreshMs: number,
): Promise<SignatureKeysCache> {
  let verifier = noSignatureKeys;
  const load = async () => {
    try {
      const rows = await db.signatureKeyDirectory.findMany({ select: { origin: true, keys: true } });
      verifier = createSignatureVerifier(
        rows.map((r) => ({ origin: r.origin, keys: r.keys as unknown as DirectoryKey[] })),
      );
    } catch (err) {
      logger.error({ err }, 'could not load the Web Bot Auth key directories; keeping the previous ones');
    }
  };
  await load();
  const timer = setInterval(load, refreshMs);
  timer.unref();
  return { current: () => verifier, stop: () => clearInterval(timer) };
}
