import { isAscii } from 'node:buffer';
import { z } from 'zod';
import type { ByteSink } from '../body-stream.ts';

/** Amazon Data Firehose's HTTP endpoint delivery: at most 10,000 records a request. */
export const FIREHOSE_MAX_RECORDS = 10_000;

/** The body is not a Firehose delivery (`{requestId, timestamp, records: [{data}]}`). */
export class NotFirehoseError extends Error {}

/** The envelope around the records, read once the records array has been walked (it is then `[]`). */
const envelopeOutsideRecords = z.object({
  requestId: z.string().min(1).max(256),
  timestamp: z.number(),
  records: z.array(z.never()),
});

/** The envelope's bytes before and after the records array: Firehose's are a hundred or so. */
const MAX_OUTSIDE_BYTES = 64 * 1024;

/** Decoded text handed on at a time: a young, short-lived string (V8's new space). */
const GROUP_BYTES = 64 * 1024;

const RECORDS_KEY = /"records"\s*:\s*\[/g;
const DATA_KEY = '"data"';
/** What stands between two records as Firehose writes them: read in one step, not byte by byte. */
const BETWEEN_RECORDS = '"},{"data":"';

// Where the walk through the records array stands, between any two bytes of the body.
const PRELUDE = 0;
const BEFORE_RECORD = 1;
const DATA_KEY_NEXT = 2;
const BEFORE_COLON = 3;
const BEFORE_VALUE = 4;
const IN_DATA = 5;
const ESCAPED = 6;
const BEFORE_BRACE = 7;
const AFTER_RECORD = 8;
const POSTLUDE = 9;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Reads a Firehose delivery as it streams in, never holding it whole: the records array is walked
 * over each chunk's latin1 text (Firehose writes each record as `{"data":"<base64>"}`), each
 * record's base64 is decoded straight from that text into one reused buffer, and every 64 KiB of
 * decoded lines is handed to `read` as text (each record ending in a newline), or null for a
 * record that is not base64. Only the envelope outside the array is JSON-parsed, at the end.
 * Parsing the whole body measured most of a delivery's cost, and holding it (megabytes) a quarter
 * more in garbage collection; copying each record's base64 aside before decoding it, a sixth of
 * this reader's time. A body in another shape (a record with another key, an escape in base64
 * other than `\/`) is not a Firehose delivery.
 */
export class FirehoseEnvelopeReader implements ByteSink {
  private step = PRELUDE;
  private prelude = Buffer.alloc(0);
  private outside: Buffer[] = [];
  private outsideBytes = 0;
  private keyAt = 0;
  private sawRecord = false;
  private records = 0;
  /** The current record's base64 read so far, when it began in an earlier chunk or held an escape. */
  private partial = '';
  private decoded = Buffer.allocUnsafeSlow(GROUP_BYTES + 1024);
  private decodedUsed = 0;
  requestId = '';

  constructor(private readonly read: (text: string | null) => void) {}

  write(chunk: Buffer) {
    let i = 0;
    if (this.step === PRELUDE) {
      const at = this.preludeEnd(chunk);
      if (at === -1) return;
      i = at;
    }
    // One copy of the chunk as text (a byte a character), which records' base64 are slices of.
    const text = chunk.toString('latin1');
    // Where this chunk's next backslash is: searched again only once passed (a search per record
    // would scan the rest of the chunk each time).
    let escapeAt = -2;
    while (i < text.length) {
      const b = text.charCodeAt(i);
      switch (this.step) {
        case BEFORE_RECORD:
          if (isSpace(b)) break;
          if (b === 0x7b) {
            this.step = DATA_KEY_NEXT;
            this.keyAt = 0;
          } else if (b === 0x5d && !this.sawRecord) this.toPostlude(chunk, i);
          else throw new NotFirehoseError();
          break;
        case DATA_KEY_NEXT:
          if (this.keyAt === 0 && isSpace(b)) break;
          if (b !== DATA_KEY.charCodeAt(this.keyAt)) throw new NotFirehoseError();
          if (++this.keyAt === DATA_KEY.length) this.step = BEFORE_COLON;
          break;
        case BEFORE_COLON:
          if (isSpace(b)) break;
          if (b !== 0x3a) throw new NotFirehoseError();
          this.step = BEFORE_VALUE;
          break;
        case BEFORE_VALUE:
          if (isSpace(b)) break;
          if (b !== 0x22) throw new NotFirehoseError();
          this.startRecord();
          this.step = IN_DATA;
          break;
        case IN_DATA: {
          // The base64 up to the closing quote (or an escape) in this chunk.
          let stop = text.indexOf('"', i);
          if (stop === -1) stop = text.length;
          if (escapeAt !== -1 && escapeAt < i) escapeAt = text.indexOf('\\', i);
          if (escapeAt !== -1 && escapeAt < stop) stop = escapeAt;
          if (stop === text.length || text.charCodeAt(stop) === 0x5c) {
            this.partial += text.slice(i, stop);
            if (stop < text.length) this.step = ESCAPED;
            i = stop;
            break;
          }
          this.decode(this.partial === '' ? text.slice(i, stop) : this.partial + text.slice(i, stop));
          this.partial = '';
          if (text.startsWith(BETWEEN_RECORDS, stop)) {
            this.startRecord();
            i = stop + BETWEEN_RECORDS.length;
            continue;
          }
          this.step = BEFORE_BRACE;
          i = stop;
          break;
        }
        case ESCAPED:
          // JSON may write `/` as `\/`; base64 has no other character an encoder escapes.
          if (b !== 0x2f) throw new NotFirehoseError();
          this.partial += '/';
          this.step = IN_DATA;
          break;
        case BEFORE_BRACE:
          if (isSpace(b)) break;
          if (b !== 0x7d) throw new NotFirehoseError();
          this.step = AFTER_RECORD;
          break;
        case AFTER_RECORD:
          if (isSpace(b)) break;
          if (b === 0x2c) this.step = BEFORE_RECORD;
          else if (b === 0x5d) this.toPostlude(chunk, i);
          else throw new NotFirehoseError();
          break;
        case POSTLUDE:
          this.keepOutside(chunk.subarray(i));
          return;
      }
      i++;
    }
  }

  end() {
    if (this.step !== POSTLUDE) throw new NotFirehoseError();
    this.handOn();
    let envelope: z.output<typeof envelopeOutsideRecords>;
    try {
      envelope = envelopeOutsideRecords.parse(JSON.parse(Buffer.concat(this.outside).toString('utf8')));
    } catch {
      throw new NotFirehoseError();
    }
    this.requestId = envelope.requestId;
  }

  /** Where the records array starts in this chunk (after its `[`), or -1 while the prelude goes on. */
  private preludeEnd(chunk: Buffer): number {
    const before = this.prelude.length;
    this.prelude = Buffer.concat([this.prelude, chunk]);
    const match = topLevelRecordsKey(this.prelude.toString('latin1'));
    if (match === null) {
      if (this.prelude.length > MAX_OUTSIDE_BYTES) throw new NotFirehoseError();
      return -1;
    }
    const end = match.index + match[0].length;
    this.keepOutside(this.prelude.subarray(0, end));
    this.prelude = Buffer.alloc(0);
    this.step = BEFORE_RECORD;
    return end - before;
  }

  /** The array's `]`: the envelope's JSON goes on from it (the array then reads as empty). */
  private toPostlude(chunk: Buffer, at: number) {
    this.step = POSTLUDE;
    this.keepOutside(chunk.subarray(at, at + 1));
  }

  private keepOutside(bytes: Buffer) {
    this.outsideBytes += bytes.length;
    if (this.outsideBytes > MAX_OUTSIDE_BYTES) throw new NotFirehoseError();
    this.outside.push(Buffer.from(bytes));
  }

  private startRecord() {
    if (++this.records > FIREHOSE_MAX_RECORDS) throw new NotFirehoseError();
  }

  /** One record's base64, decoded after the lines before it, or a null for one that is not base64. */
  private decode(data: string) {
    this.sawRecord = true;
    // Node's decoder skips what is not base64: fewer bytes than the length promises is not base64.
    const expected = data.length % 4 === 0 ? (data.length / 4) * 3 - padding(data) : -1;
    if (expected !== -1 && this.decodedUsed + expected + 1 > this.decoded.length) {
      this.handOn();
      if (expected + 1 > this.decoded.length) this.decoded = Buffer.allocUnsafeSlow(expected + 1);
    }
    if (expected === -1 || this.decoded.write(data, this.decodedUsed, 'base64') !== expected) {
      this.handOn();
      this.read(null);
      return;
    }
    this.decodedUsed += expected;
    this.decoded[this.decodedUsed++] = 0x0a;
    if (this.decodedUsed >= GROUP_BYTES) this.handOn();
  }

  /** The lines decoded so far, as one string: a string and a buffer per record measured more than the rest of a line's reading. */
  private handOn() {
    if (this.decodedUsed === 0) return;
    const bytes = this.decoded.subarray(0, this.decodedUsed);
    this.decodedUsed = 0;
    // CloudFront's lines are ASCII (it percent-encodes the rest): read as latin1, a copy, they need
    // none of UTF-8's decoding.
    this.read(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8'));
  }
}

/** The `=` that pad a base64 text's end (0 to 2). */
function padding(base64: string): number {
  const n = base64.length;
  if (n === 0 || base64.charCodeAt(n - 1) !== 0x3d) return 0;
  return base64.charCodeAt(n - 2) === 0x3d ? 2 : 1;
}

/**
 * The envelope's own `"records": [` in the text before the records, if it is there yet: the first
 * such key standing in the top-level object, not inside a string or a nested object.
 */
function topLevelRecordsKey(text: string): RegExpExecArray | null {
  RECORDS_KEY.lastIndex = 0;
  for (let match = RECORDS_KEY.exec(text); match !== null; match = RECORDS_KEY.exec(text)) {
    if (depthAt(text, match.index) === 1) return match;
  }
  return null;
}

/** How deep in objects and arrays `index` stands (0 outside the body's value, -1 inside a string). */
function depthAt(text: string, index: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString ? -1 : depth;
}
