import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compare two secrets without leaking where they differ, or their lengths: both sides are hashed
 * to 32 bytes first, since timingSafeEqual itself throws on unequal lengths.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}
