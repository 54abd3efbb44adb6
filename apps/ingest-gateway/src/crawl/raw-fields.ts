import type { CrawlEventField } from '@vt/contracts';

/**
 * What the raw-text decision (BatchClassifier) reads of each field a crawl line can carry: one
 * entry per key of the line's schema, so a field added there fails the typecheck here until it is
 * placed, and raw-text-decision.test.ts proves every placing against the full parse.
 * - read: the field can make a line kept, or names its host; the decision looks for its key, and
 *   leaves a line where it is unusual (escaped, repeated, nested, not a string) to the full parse.
 * - ignored: the field can only make a line unusable, or shapes what is kept of a line kept for
 *   another field, so a line dropped on its raw text is dropped whatever the field holds.
 */
export const RAW_TEXT_FIELDS = {
  timestamp: 'ignored',
  host: 'read',
  path: 'ignored',
  userAgent: 'read',
  statusCode: 'ignored',
  method: 'ignored',
  referer: 'read',
  // Verifies a crawler kept for its user agent or its signature.
  ip: 'ignored',
  // A line is signed only with all three headers non-empty: a non-empty Signature-Agent sends it
  // to the full parse, which decides on the other two.
  signature: 'ignored',
  signatureInput: 'ignored',
  signatureAgent: 'read',
} as const satisfies Record<CrawlEventField, 'read' | 'ignored'>;

/** The fields the raw-text decision reads. */
export type RawFieldKey = {
  [K in CrawlEventField]: (typeof RAW_TEXT_FIELDS)[K] extends 'read' ? K : never;
}[CrawlEventField];

/** Each read key's quoted form, to search for (built once at load, not per line). */
const NEEDLES = Object.fromEntries(
  Object.entries(RAW_TEXT_FIELDS)
    .filter(([, role]) => role === 'read')
    .map(([key]) => [key, `"${key}"`]),
) as Record<RawFieldKey, string>;

/** A read key as it stands quoted in a line's text. */
const rawKeyNeedle = (key: RawFieldKey): string => NEEDLES[key];

/**
 * What BatchClassifier.droppedOnRawText searches for to find each field it reads (a field placed
 * `read` above must be given one here, and be read there). Keys are searched without their opening
 * quote: `"` is so common in JSON that a needle starting with it measured three to four times
 * slower. `Agent"` finds userAgent and signatureAgent both.
 */
export const RAW_KEY_NEEDLES = {
  userAgent: 'Agent"',
  signatureAgent: 'Agent"',
  host: 'host"',
  referer: 'referer"',
} as const satisfies Record<RawFieldKey, string>;

/** A read key's quoted form before its needle (`"user` of `"userAgent"`), to tell apart keys that share one. */
export function rawKeyHead(key: RawFieldKey): string {
  const quoted = rawKeyNeedle(key);
  if (!quoted.endsWith(RAW_KEY_NEEDLES[key])) throw new Error(`the needle for ${key} is not the end of its key`);
  return quoted.slice(0, -RAW_KEY_NEEDLES[key].length);
}

// At load, not on the first line: a needle that is not its key's end would find nothing.
for (const key of Object.keys(RAW_KEY_NEEDLES) as RawFieldKey[]) rawKeyHead(key);

/**
 * Reads a top-level string field straight from a JSON object line's text (trimmed, starting with
 * `{`), without parsing the line:
 * `undefined` when the key is absent, `null` when the text is unusual (escapes in the value,
 * odd spacing, the key twice) and only a real parse can tell. Keys are matched only where a key can stand
 * (after `{` or `,`), so a value that happens to spell a key name is not mistaken for one.
 */
export function rawStringField(line: string, quotedKey: string): string | undefined | null {
  const needle = quotedKey;
  let at = line.indexOf(needle);
  while (at !== -1) {
    let before = at - 1;
    while (before >= 0 && isSpace(line.charCodeAt(before))) before--;
    const prev = line.charCodeAt(before);
    if (prev === 0x7b || prev === 0x2c) break; // { or ,
    at = line.indexOf(needle, at + needle.length);
  }
  if (at === -1) return undefined;
  // A key given twice: JSON.parse keeps the last, so only parsing can tell.
  if (line.indexOf(needle, at + needle.length) !== -1) return null;
  // Top level only: with any `{` before the key but the line's own, the key may sit in a nested
  // object (`{"headers":{"host":…}}`), and only a real parse can tell.
  if (line.lastIndexOf('{', at) !== 0) return null;
  let i = at + needle.length;
  while (isSpace(line.charCodeAt(i))) i++;
  if (line.charCodeAt(i) !== 0x3a) return null; // :
  i++;
  while (isSpace(line.charCodeAt(i))) i++;
  if (line.charCodeAt(i) !== 0x22) return null; // not a string (or null): let JSON decide
  const end = line.indexOf('"', i + 1);
  if (end === -1) return null;
  const value = line.slice(i + 1, end);
  return value.includes('\\') ? null : value;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Where a piece of text next occurs in one chunk of a body from a position on, remembered between
 * calls. Lines are read in order, so each search starts where the last left off or is answered
 * from memory: a chunk's lines cost about one pass over the chunk per needle, and a needle absent
 * from every line is not searched for again line after line.
 */
export class NeedleCursor {
  /** The next occurrence at or after the last position asked for; -1 none, -2 not searched yet. */
  private at = -2;
  private text = '';

  constructor(
    readonly needle: string,
    private readonly find: (text: string, from: number) => number,
  ) {}

  static of(needle: string): NeedleCursor {
    return new NeedleCursor(needle, (text, from) => text.indexOf(needle, from));
  }

  /** Starts over on a new chunk. */
  reset(text: string) {
    this.text = text;
    this.at = -2;
  }

  /** The first occurrence at or after `from`, or -1. Calls must not go back before an earlier `from`. */
  next(from: number): number {
    if (this.at !== -1 && this.at < from) this.at = this.find(this.text, from);
    return this.at;
  }

  /** Whether the needle occurs in [from, to). */
  within(from: number, to: number): boolean {
    const at = this.next(from);
    return at !== -1 && at < to;
  }
}
