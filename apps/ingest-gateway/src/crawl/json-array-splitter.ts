import { MAX_RECORD_BYTES, UNREADABLE_RECORD } from './record-cap.ts';

/**
 * Splits a streamed JSON array into the source text of its top-level elements without parsing
 * them, so each element is handled like an NDJSON line (and a bad element costs only itself).
 * Tracks nesting depth and string state across chunks. Text after a broken structure (a missing
 * `[`, an unterminated element) is reported as one last record, which then fails to parse and
 * counts as one unreadable line.
 *
 * Each character is looked at once and copied a bounded number of times, whatever the input: the
 * work is linear in the body. An element over the cap (`MAX_RECORD_BYTES` of UTF-8, as for an
 * NDJSON line) is reported as UNREADABLE_RECORD and is not held while it is read: only its size
 * is, and its text after its last `,{` up to the cap, where a resync would start the next element.
 */
export class JsonArraySplitter {
  private state: 'before' | 'between' | 'element' | 'after' = 'before';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private failed = false;
  /** A string just closed inside an element: the next significant character must be , } ] or :. */
  private afterString = false;

  // The element being read, as far as the earlier chunks took it. Offsets count from its first character.
  /** Its length in the earlier chunks. */
  private carriedChars = 0;
  /** Its text from the earlier chunks while within the cap; '' once over it. */
  private carried = '';
  private carriedBytes = 0;
  private oversized = false;
  /** Once over the cap: its text from its last `,{` on (from the `{`) while within the cap, else null. */
  private sinceCut: string | null = null;
  private sinceCutFrom = 0;
  private sinceCutBytes = 0;
  /**
   * Offset of its last `,{`, strings included: where a resync cuts it; -1 when it has none. Noted as
   * the scan passes it: searching the element for it at each suspect quote made a body of
   * `[{"a""a""a"…` quadratic (a 256 KiB element held the event loop for 14 s).
   */
  private lastCut = -1;
  /** The last character carried is a comma: a `,{` may straddle two chunks. */
  private carriedEndsWithComma = false;

  constructor(
    private readonly onRecord: (record: string) => void,
    private readonly maxElementBytes = MAX_RECORD_BYTES,
  ) {}

  push(text: string) {
    if (this.failed) return;
    let elementStart = this.state === 'element' ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.state === 'element') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === 0x5c)
            this.escaped = true; // backslash
          else if (c === 0x22) {
            this.inString = false; // quote
            this.afterString = true;
          } else if (c === 0x7b) this.noteBrace(text, i, elementStart);
          continue;
        }
        if (this.afterString && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
          this.afterString = false;
          if (c !== 0x2c && c !== 0x7d && c !== 0x5d && c !== 0x3a && this.lastCut > 0) {
            // The "closing" quote was really the opening quote of the next element's first key:
            // an element was cut off inside a string (`{"host": "exam,{"timestamp": …`). Resync at
            // the last `,{`, hand over the broken element, and go on with the next one.
            this.resync(text, elementStart, i);
            elementStart = i;
            this.depth = 1;
            this.inString = true;
            this.escaped = false;
            i--; // read this character again, inside the key string
            continue;
          }
        }
        if (c === 0x22) this.inString = true;
        else if (c === 0x7b) {
          this.depth++;
          this.noteBrace(text, i, elementStart);
        } else if (c === 0x5b) this.depth++;
        else if (c === 0x7d || c === 0x5d) {
          // } ]
          if (this.depth === 0) {
            // `]` closing the array right after a scalar element
            this.finishElement(text.slice(elementStart, i));
            this.state = 'after';
            continue;
          }
          this.depth--;
          if (this.depth === 0 && c === 0x7d) {
            this.finishElement(text.slice(elementStart, i + 1));
            this.state = 'between';
          }
        } else if (c === 0x2c && this.depth === 0) {
          // a scalar element ended by a comma
          this.finishElement(text.slice(elementStart, i));
          this.state = 'between';
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (this.state === 'before') {
        if (c === 0x5b) this.state = 'between';
        else return this.fail(text.slice(i));
      } else if (this.state === 'between') {
        if (c === 0x2c) continue;
        if (c === 0x5d) {
          this.state = 'after';
          continue;
        }
        this.state = 'element';
        this.startElement();
        elementStart = i;
        this.depth = 0;
        if (c === 0x7b || c === 0x5b) this.depth = 1;
        else if (c === 0x22) this.inString = true;
      } else {
        return this.fail(text.slice(i)); // text after the closing bracket
      }
    }
    if (this.state === 'element') this.carry(text.slice(elementStart));
  }

  end() {
    if (this.state === 'element') this.finishElement(''); // unterminated: one unreadable record
    this.state = 'after';
  }

  /**
   * A `{` at `i`: after a comma it is a `,{`, where a resync would cut. (An escaped `{` follows a
   * backslash, never a comma: the string branch need not look at it.)
   */
  private noteBrace(text: string, i: number, elementStart: number) {
    if (i > elementStart ? text.charCodeAt(i - 1) === 0x2c : this.carriedEndsWithComma) {
      this.lastCut = this.carriedChars + (i - elementStart) - 1;
    }
  }

  private startElement() {
    this.carriedChars = 0;
    this.carried = '';
    this.carriedBytes = 0;
    this.oversized = false;
    this.sinceCut = null;
    this.sinceCutFrom = 0;
    this.sinceCutBytes = 0;
    this.lastCut = -1;
    this.carriedEndsWithComma = false;
  }

  /** The element ends with `tail`, the part of it in this chunk. */
  private finishElement(tail: string) {
    const whole = this.oversized ? null : this.carried + tail;
    this.startElement();
    this.afterString = false;
    this.inString = false;
    this.escaped = false;
    this.onRecord(whole === null ? UNREADABLE_RECORD : this.withinCap(whole));
  }

  /** Keeps what the element may still need of this chunk's part of it, `portion`. */
  private carry(portion: string) {
    const from = this.carriedChars;
    this.carriedChars += portion.length;
    if (portion.length > 0) this.carriedEndsWithComma = portion.charCodeAt(portion.length - 1) === 0x2c;
    if (!this.oversized) {
      this.carried += portion;
      this.carriedBytes += Buffer.byteLength(portion);
      if (this.carriedBytes <= this.maxElementBytes) return;
      this.oversized = true;
      this.keepSinceCut(this.carried, 0);
      this.carried = '';
    } else if (this.lastCut > 0 && this.lastCut + 1 !== this.sinceCutFrom) {
      this.keepSinceCut(portion, from); // a new `,{` in this chunk
    } else if (this.sinceCut !== null) {
      this.sinceCut += portion;
      this.sinceCutBytes += Buffer.byteLength(portion);
      if (this.sinceCutBytes > this.maxElementBytes) this.sinceCut = null;
    }
  }

  /** Over the cap, only the text after the last `,{` may still be wanted: a resync would start the next element there. */
  private keepSinceCut(text: string, textFrom: number) {
    this.sinceCutFrom = this.lastCut + 1;
    this.sinceCut = this.lastCut > 0 ? text.slice(this.sinceCutFrom - textFrom) : null;
    this.sinceCutBytes = this.sinceCut === null ? 0 : Buffer.byteLength(this.sinceCut);
    if (this.sinceCutBytes > this.maxElementBytes) this.sinceCut = null;
  }

  /**
   * Hands over the element up to its last `,{` and makes the text after it, to `end`, the start of
   * the next one. Linear overall: the text after the cut holds no `,{`, so the next resync hands
   * all of it over rather than carrying it on again.
   */
  private resync(text: string, elementStart: number, end: number) {
    const cut = this.lastCut;
    const chars = this.carriedChars + (end - elementStart);
    let rest: string | null;
    if (!this.oversized) {
      const soFar = this.carried + text.slice(elementStart, end);
      this.onRecord(this.withinCap(soFar.slice(0, cut)));
      rest = soFar.slice(cut + 1);
    } else {
      this.onRecord(UNREADABLE_RECORD); // it is broken text, unreadable whatever its own size
      if (cut + 1 >= this.carriedChars) rest = text.slice(elementStart + cut + 1 - this.carriedChars, end);
      else rest = this.sinceCut === null ? null : this.sinceCut + text.slice(elementStart, end);
    }
    this.startElement();
    this.carriedChars = chars - cut - 1;
    if (rest !== null) {
      this.carried = rest;
      this.carriedBytes = Buffer.byteLength(rest);
    }
    if (rest === null || this.carriedBytes > this.maxElementBytes) {
      this.oversized = true;
      this.carried = '';
    }
  }

  private withinCap(record: string): string {
    // A UTF-16 unit is at most 3 bytes of UTF-8: most records need no count.
    if (record.length * 3 <= this.maxElementBytes) return record;
    return Buffer.byteLength(record) <= this.maxElementBytes ? record : UNREADABLE_RECORD;
  }

  private fail(rest: string) {
    // Not an array, or garbage after it: hand the rest over as one record that will not parse.
    this.state = 'after';
    this.failed = true;
    if (rest.trim()) this.onRecord(this.withinCap(rest));
  }
}
