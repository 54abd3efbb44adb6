/** The keys read without parsing, each with its quoted form to search for (built once, not per line). */
const NEEDLES = { userAgent: '"userAgent"', referer: '"referer"', host: '"host"' } as const;
export type RawFieldKey = keyof typeof NEEDLES;

/**
 * Reads a top-level string field straight from a JSON object line's text (trimmed, starting with
 * `{`), without parsing the line:
 * `undefined` when the key is absent, `null` when the text is unusual (escapes in the value,
 * odd spacing, the key twice) and only a real parse can tell. Keys are matched only where a key can stand
 * (after `{` or `,`), so a value that happens to spell a key name is not mistaken for one.
 */
export function rawStringField(line: string, key: RawFieldKey): string | undefined | null {
  const needle = NEEDLES[key];
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

  constructor(private readonly find: (text: string, from: number) => number) {}

  static of(needle: string): NeedleCursor {
    return new NeedleCursor((text, from) => text.indexOf(needle, from));
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
