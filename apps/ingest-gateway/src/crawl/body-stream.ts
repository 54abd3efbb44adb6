import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, type Gunzip } from 'node:zlib';
import { JsonArraySplitter } from './json-array-splitter.ts';
import { MAX_RECORD_BYTES, UNREADABLE_RECORD } from './record-cap.ts';

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
 * Inflated bytes per gunzip output chunk. Node's default of 16 KiB costs a thread-pool round trip
 * and a callback per 16 KiB: at 64 KiB gunzip measured about half the CPU a line, and 32 and
 * 256 KiB both measured worse in `pnpm bench:ingest`.
 */
export const INFLATE_CHUNK_BYTES = 64 * 1024;

/** Where the lines of a body go: a decoded chunk of text, then each line of it in order. */
export interface LineSink {
  useText(text: string): void;
  lineAt(start: number, end: number): void;
}

/**
 * Streams a request body to `sink` one record at a time (an NDJSON line, or one element of a JSON
 * array), never holding the whole body. The format comes from Content-Type when it says, else
 * from the first non-blank character.
 */
export function streamRecords(
  body: Readable,
  declaredFormat: BodyFormat | null,
  limits: BodyLimits,
  sink: LineSink,
): Promise<void> {
  return streamBody(body, limits, new RecordSplitter(declaredFormat, sink));
}

/** Where a body's inflated bytes go, chunk by chunk; `end` may throw to refuse the body. */
export interface ByteSink {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * Streams a request body's bytes to `records`, inflated: gzip is detected by its magic bytes
 * whether or not Content-Encoding survived, and both the wire and the inflated size are capped
 * while reading. Plain 'data' events rather than async iteration and pipeline(): per chunk they
 * measured a quarter of the gateway's CPU. A body that closes before its end rejects.
 */
export function streamBody(body: Readable, limits: BodyLimits, records: ByteSink): Promise<void> {
  return new Promise((resolve, reject) => {
    let wireBytes = 0;
    let inflatedBytes = 0;
    // Gzip is told by its first two bytes, which may arrive in separate chunks.
    let head: Buffer | null = Buffer.alloc(0);
    let gunzip: Gunzip | null = null;
    let settled = false;

    const stop = () => {
      settled = true;
      body.off('data', onWire);
      body.off('end', onEnd);
      body.off('error', fail);
      body.off('close', onClose);
    };
    function fail(err: unknown) {
      if (settled) return;
      stop();
      gunzip?.destroy();
      reject(err);
    }
    const finish = () => {
      if (settled) return;
      try {
        records.end();
      } catch (err) {
        return fail(err);
      }
      stop();
      resolve();
    };
    const onText = (chunk: Buffer) => {
      if (settled) return;
      inflatedBytes += chunk.length;
      if (inflatedBytes > limits.maxInflatedBytes) return fail(new BodyTooLargeError('inflated'));
      try {
        records.write(chunk);
      } catch (err) {
        fail(err);
      }
    };
    const startReading = (first: Buffer) => {
      head = null;
      if (first[0] === GZIP_MAGIC_0 && first[1] === GZIP_MAGIC_1) {
        const inflate = createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
        inflate.on('data', onText);
        inflate.on('end', finish);
        inflate.on('drain', () => body.resume());
        inflate.on('error', (err: Error & { code?: string }) =>
          fail(err.code?.startsWith('Z_') ? new CorruptGzipError(err.message) : err),
        );
        gunzip = inflate;
      }
      write(first);
    };
    const write = (chunk: Buffer) => {
      if (gunzip === null) onText(chunk);
      else if (!gunzip.write(chunk)) body.pause(); // until gunzip has caught up
    };
    function onWire(chunk: Buffer) {
      if (settled) return;
      wireBytes += chunk.length;
      if (wireBytes > limits.maxWireBytes) return fail(new BodyTooLargeError('wire'));
      if (head === null) return write(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= 2) startReading(head);
    }
    function onEnd() {
      if (head !== null && head.length > 0) startReading(head);
      if (gunzip === null) finish();
      else gunzip.end();
    }
    function onClose() {
      if (!body.readableEnded) fail(new Error('the body closed before its end'));
    }
    body.on('data', onWire);
    body.on('end', onEnd);
    body.on('error', fail);
    body.on('close', onClose);
  });
}

/**
 * Turns the inflated bytes into records: NDJSON lines, or the elements of a JSON array. NDJSON is
 * split on bytes and only whole lines are decoded, one string per chunk: a newline never falls
 * inside a UTF-8 character, every text is a flat string of its own, and a line that spans chunks
 * is joined as bytes (one that outgrows the cap is dropped as it comes, never held).
 */
class RecordSplitter implements ByteSink {
  private readonly decoder = new StringDecoder('utf8');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private oversized = false;
  private array: JsonArraySplitter | null = null;
  private sniffed = false;

  constructor(
    private format: BodyFormat | null,
    private readonly sink: LineSink,
  ) {}

  write(chunk: Buffer) {
    if (!this.sniffed && this.format !== 'ndjson') {
      const rest = this.sniff(chunk);
      if (rest === null) return;
      chunk = rest;
    }
    if (this.format === 'json-array') {
      this.array ??= new JsonArraySplitter((record) => this.emitOwn(record));
      this.array.push(this.decoder.write(chunk));
      return;
    }
    this.writeLines(chunk);
  }

  end() {
    if (this.format === 'json-array') {
      this.array?.push(this.decoder.end());
      this.array?.end();
    } else if (this.pendingBytes > 0 || this.oversized) {
      this.emitPending(Buffer.alloc(0));
    }
  }

  /**
   * Skips leading blanks (and a byte order mark) to the first significant byte: `[` is an array
   * whatever the Content-Type says was meant, anything else is NDJSON (a sender that labels NDJSON
   * application/json). The chunk from that byte on, or null while all of it is blank.
   */
  private sniff(chunk: Buffer): Buffer | null {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i];
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) i++;
      else if (b === 0xef && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf) i += 3;
      else break;
    }
    if (i >= chunk.length) return null;
    this.sniffed = true;
    this.format = chunk[i] === 0x5b ? 'json-array' : 'ndjson';
    return chunk.subarray(i);
  }

  private writeLines(chunk: Buffer) {
    let from = 0;
    if (this.pendingBytes > 0 || this.oversized) {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) return this.keep(chunk);
      this.emitPending(chunk.subarray(0, nl));
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last >= from) {
      const text = chunk.toString('utf8', from, last + 1);
      this.sink.useText(text);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        this.sink.lineAt(start, nl);
        start = nl + 1;
      }
      from = last + 1;
    }
    this.keep(chunk.subarray(from));
  }

  /** Holds the start of a line that goes on in the next chunk (a copy: the chunk is not ours). */
  private keep(bytes: Buffer) {
    if (bytes.length === 0 || this.oversized) return;
    if (this.pendingBytes + bytes.length > MAX_RECORD_BYTES) {
      this.oversized = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(Buffer.from(bytes));
    this.pendingBytes += bytes.length;
  }

  /** The line held from earlier chunks, ending with `tail`. */
  private emitPending(tail: Buffer) {
    const tooLong = this.oversized || this.pendingBytes + tail.length > MAX_RECORD_BYTES;
    const line = tooLong ? UNREADABLE_RECORD : Buffer.concat([...this.pending, tail]).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.oversized = false;
    this.emitOwn(line);
  }

  /** A record that is a string of its own: a line that spanned chunks, or an array element. */
  private emitOwn(record: string) {
    this.sink.useText(record);
    this.sink.lineAt(0, record.length);
  }
}
