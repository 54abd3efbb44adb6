import { createHash } from 'node:crypto';

/**
 * A UUID that is a pure function of `name`: SHA-256 of it, shaped as a version-5 UUID (RFC 9562's
 * layout, with SHA-256 in place of SHA-1). The same name gives the same id on every run and every
 * replica: the demo's fixed rows, a named crawl batch's job id.
 */
export function nameBasedUuid(name: string): string {
  const b = createHash('sha256').update(name).digest();
  b.writeUInt8((b.readUInt8(6) & 0x0f) | 0x50, 6);
  b.writeUInt8((b.readUInt8(8) & 0x3f) | 0x80, 8);
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
