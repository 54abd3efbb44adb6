import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { JsonArraySplitter } from './json-array-splitter.ts';

export interface BodyLimits {
  /** Bytes accepted on the wire (compressed or not). */
  maxWireBytes: number;
  /** Bytes accepted after gunzip: the guard against decompression bombs. */
  maxInflatedBytes: number;
}

export type BodyFormat = 'ndjson' | 'json-array';

/** The format Content-Type declares, or null when it says neither (the body's first character decides). */
export function declaredBodyFormat(contentType: string | undefined): BodyFormat | null {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('ndjson') || type.includes('jsonl') || type.includes('json-seq')) return 'ndjson';
  if (type.includes('json')) return 'json-array';
  return null;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: 'wire' | 'inflated') {
    super(`body over the ${limit} size cap`);
  }
}

export class CorruptGzipError extends Error {}

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/**
 * Streams a request body to `onRecord` one record at a time (an NDJSON line, or one element of a
 * JSON array), never holding the whole body: gzip is detected by its magic bytes whether or not
 * Content-Encoding survived, and both the wire and the inflated size are capped while reading.
 * The format comes from Content-Type when it says, else from the first non-blank character.
 */
export async function streamRecords(
  body: Readable,
  declaredFormat: BodyFormat | null,
  limits: BodyLimits,
  onRecord: (record: string) => void,
): Promise<void> {
  const records = new RecordSplitter(declaredFormat, onRecord);
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // Gzip is told by its first two bytes, which may arrive in separate chunks.
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < 2) {
    const next = await chunks.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  if (headBytes === 0) return;
  const first = Buffer.concat(head);

  // Errors thrown inside a pipeline stage reach the caller as an AbortError; keep the real one.
  let limitError: BodyTooLargeError | undefined;
  let wireBytes = 0;
  async function* wire() {
    let chunk: Buffer | undefined = first;
    while (chunk) {
      wireBytes += chunk.length;
      if (wireBytes > limits.maxWireBytes) {
        limitError = new BodyTooLargeError('wire');
        throw limitError;
      }
      yield chunk;
      const next: IteratorResult<Buffer> = done ? { done: true, value: undefined } : await chunks.next();
      chunk = next.done ? undefined : next.value;
    }
  }
  let inflatedBytes = 0;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      inflatedBytes += chunk.length;
      if (inflatedBytes > limits.maxInflatedBytes) {
        limitError = new BodyTooLargeError('inflated');
        throw limitError;
      }
      records.write(chunk);
    }
  };
  const isGzip = first[0] === GZIP_MAGIC_0 && first[1] === GZIP_MAGIC_1;
  try {
    if (isGzip) await pipeline(Readable.from(wire()), createGunzip(), sink);
    else await pipeline(Readable.from(wire()), sink);
  } catch (err) {
    if (limitError) throw limitError;
    const code = (err as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) throw new CorruptGzipError((err as Error).message);
    throw err;
  }
  records.end();
}

/** Turns decoded text into records: NDJSON lines, or the elements of a JSON array. */
class RecordSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private array: JsonArraySplitter | null = null;
  private sniffed = false;
  private oversized = false;

  constructor(
    private format: BodyFormat | null,
    private readonly onRecord: (record: string) => void,
  ) {}

  write(chunk: Buffer) {
    this.consume(this.decoder.write(chunk));
  }

  end() {
    this.consume(this.decoder.end());
    if (this.format === 'json-array') this.array?.end();
    else if (this.pending.length > 0 || this.oversized) this.emitLine(this.pending);
  }

  private consume(text: string) {
    if (this.format === null || this.format === 'json-array') {
      if (!this.sniffed) {
        // Sniff the first non-blank character: `[` is an array whatever the Content-Type says
        // was meant, anything else is NDJSON (a sender that labels NDJSON application/json).
        const first = /[^\s\uFEFF]/.exec(text);
        if (!first) return;
        this.sniffed = true;
        this.format = first[0] === '[' ? 'json-array' : 'ndjson';
        text = text.slice(first.index);
      }
    }
    if (this.format === 'json-array') {
      this.array ??= new JsonArraySplitter(this.onRecord);
      this.array.push(text);
      return;
    }
    // Look for newlines in the new text only: rescanning what is pending would make one long
    // line cost quadratic time.
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.emitLine(this.pending + text.slice(start, nl));
      this.pending = '';
      start = nl + 1;
    }
    this.pending += text.slice(start);
    if (this.pending.length > MAX_LINE_CHARS) {
      this.oversized = true;
      this.pending = '';
    }
  }

  private emitLine(line: string) {
    if (this.oversized) {
      this.oversized = false;
      this.onRecord(UNREADABLE_RECORD);
      return;
    }
    this.onRecord(line);
  }
}

/** One log line longer than this is not a request event: it is counted unreadable, never held. */
const MAX_LINE_CHARS = 1024 * 1024;
/** Stands for a record that was dropped while read (too long): it never parses. */
const UNREADABLE_RECORD = '\u0000';
