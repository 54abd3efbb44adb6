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
  const first = await chunks.next();
  if (first.done) return;

  let wireBytes = 0;
  async function* wire() {
    let next: IteratorResult<Buffer> = first;
    while (!next.done) {
      wireBytes += next.value.length;
      if (wireBytes > limits.maxWireBytes) throw new BodyTooLargeError('wire');
      yield next.value;
      next = await chunks.next();
    }
  }
  let inflatedBytes = 0;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      inflatedBytes += chunk.length;
      if (inflatedBytes > limits.maxInflatedBytes) throw new BodyTooLargeError('inflated');
      records.write(chunk);
    }
  };
  const isGzip = first.value.length >= 2 && first.value[0] === GZIP_MAGIC_0 && first.value[1] === GZIP_MAGIC_1;
  try {
    if (isGzip) await pipeline(Readable.from(wire()), createGunzip(), sink);
    else await pipeline(Readable.from(wire()), sink);
  } catch (err) {
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
    else if (this.pending.length > 0) this.onRecord(this.pending);
  }

  private consume(text: string) {
    if (this.format === null) {
      // No usable Content-Type: sniff the first non-blank character.
      const first = /\S/.exec(text);
      if (!first) {
        this.pending += text;
        return;
      }
      this.format = first[0] === '[' ? 'json-array' : 'ndjson';
    }
    const joined = this.pending + text;
    this.pending = '';
    if (this.format === 'json-array') {
      this.array ??= new JsonArraySplitter(this.onRecord);
      this.array.push(joined);
      return;
    }
    let start = 0;
    for (let nl = joined.indexOf('\n', start); nl !== -1; nl = joined.indexOf('\n', start)) {
      this.onRecord(joined.slice(start, nl));
      start = nl + 1;
    }
    this.pending = joined.slice(start);
  }
}
