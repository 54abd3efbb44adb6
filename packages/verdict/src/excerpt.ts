/** Longest excerpt, in characters (code points): the column is VARCHAR(300). */
const EXCERPT_MAX = 300;
/** How much of the excerpt comes before the mention, at most. */
const LEAD = 80;
const ELLIPSIS = '…';

/**
 * Up to 300 characters of plain text around `at` (a UTF-16 offset into `plain`, the first
 * mention), else from the start. Cut at spaces where one is near, with an ellipsis on each cut
 * side; counted in code points, so a surrogate pair (an emoji) is never split.
 */
export function excerptAround(plain: string, at: number | null): string {
  const text = plain.replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  if (chars.length <= EXCERPT_MAX) return text;
  // The mention's index in code points (the whitespace collapse only shortens what precedes it a little).
  const mention = at === null ? 0 : Array.from(plain.slice(0, at).replace(/\s+/g, ' ').trimStart()).length;
  let from = Math.max(0, mention - LEAD);
  if (from > 0) {
    const space = chars.indexOf(' ', from);
    if (space !== -1 && space < mention) from = space + 1;
  }
  const room = EXCERPT_MAX - (from > 0 ? 1 : 0);
  let to = Math.min(chars.length, from + room);
  if (to < chars.length) {
    to = from + room - 1; // room for the closing ellipsis
    const space = chars.lastIndexOf(' ', to);
    if (space > Math.max(from, mention)) to = space;
  }
  const body = chars.slice(from, to).join('').trim();
  return `${from > 0 ? ELLIPSIS : ''}${body}${to < chars.length ? ELLIPSIS : ''}`;
}
