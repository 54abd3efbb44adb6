/**
 * Splits a streamed JSON array into the source text of its top-level elements without parsing
 * them, so each element is handled like an NDJSON line (and a bad element costs only itself).
 * Tracks nesting depth and string state across chunks. Text after a broken structure (a missing
 * `[`, an unterminated element) is reported as one last record, which then fails to parse and
 * counts as one unreadable line. Each character is looked at once, whatever the input: the work is
 * linear in the body.
 */
export class JsonArraySplitter {
  private state: 'before' | 'between' | 'element' | 'after' = 'before';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private current = '';
  private failed = false;
  /** A string just closed inside an element: the next significant character must be , } ] or :. */
  private afterString = false;
  /**
   * Offset in the element of its last `,{`, strings included: where a resync cuts it; -1 when it
   * has none. Noted as the scan passes it: searching the element for it at each suspect quote made
   * a body of `[{"a""a""a"…` quadratic (a 256 KiB element held the event loop for 14 s).
   */
  private lastCut = -1;
  /** The element's text carried from earlier chunks ends with a comma: a `,{` may straddle two chunks. */
  private carriedEndsWithComma = false;

  constructor(private readonly onRecord: (record: string) => void) {}

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
            // the last `,{`, hand over the broken element, and go on with the next one. Linear
            // overall: the text after the cut holds no `,{`, so the next resync hands all of it over.
            const soFar = this.current + text.slice(elementStart, i);
            this.onRecord(soFar.slice(0, this.lastCut));
            this.current = soFar.slice(this.lastCut + 1);
            this.lastCut = -1;
            this.carriedEndsWithComma = false; // the character before this one is a quote or a blank
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
            this.emit(this.current + text.slice(elementStart, i));
            this.state = 'after';
            continue;
          }
          this.depth--;
          if (this.depth === 0 && c === 0x7d) {
            this.emit(this.current + text.slice(elementStart, i + 1));
            this.state = 'between';
          }
        } else if (c === 0x2c && this.depth === 0) {
          // a scalar element ended by a comma
          this.emit(this.current + text.slice(elementStart, i));
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
        this.current = '';
        this.lastCut = -1;
        this.carriedEndsWithComma = false;
        elementStart = i;
        this.depth = 0;
        if (c === 0x7b || c === 0x5b) this.depth = 1;
        else if (c === 0x22) this.inString = true;
      } else {
        return this.fail(text.slice(i)); // text after the closing bracket
      }
    }
    if (this.state === 'element' && elementStart < text.length) {
      this.current += text.slice(elementStart);
      this.carriedEndsWithComma = text.charCodeAt(text.length - 1) === 0x2c;
    }
  }

  end() {
    if (this.state === 'element') this.emit(this.current); // unterminated: one unreadable record
    this.state = 'after';
  }

  /**
   * A `{` at `i`: after a comma it is a `,{`, where a resync would cut. (An escaped `{` follows a
   * backslash, never a comma: the string branch need not look at it.)
   */
  private noteBrace(text: string, i: number, elementStart: number) {
    if (i > elementStart ? text.charCodeAt(i - 1) === 0x2c : this.carriedEndsWithComma) {
      this.lastCut = this.current.length + (i - elementStart) - 1;
    }
  }

  private emit(record: string) {
    this.current = '';
    this.lastCut = -1;
    this.carriedEndsWithComma = false;
    this.afterString = false;
    this.inString = false;
    this.escaped = false;
    this.onRecord(record);
  }

  private fail(rest: string) {
    // Not an array, or garbage after it: hand the rest over as one record that will not parse.
    this.state = 'after';
    this.failed = true;
    if (rest.trim()) this.onRecord(rest);
  }
}
