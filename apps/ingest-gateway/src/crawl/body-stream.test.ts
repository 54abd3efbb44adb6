import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, streamRecords } from './body-stream.ts';

const limits = { maxWireBytes: 64 * 1024 * 1024, maxInflatedBytes: 100 * 1024 * 1024 };

async function records(chunks: Buffer[], format: 'ndjson' | 'json-array' | null = null, caps = limits) {
  const out: string[] = [];
  let text = '';
  const sink = {
    useText: (chunk: string) => {
      text = chunk;
    },
    lineAt: (start: number, end: number) => out.push(text.slice(start, end)),
  };
  await streamRecords(Readable.from(chunks), format, caps, sink);
  return out;
}

describe('streamRecords', () => {
  it('hands over a line longer than 1 MiB as one unreadable record without holding it', async () => {
    const long = `{"path":"${'a'.repeat(30 * 1024 * 1024)}"}`;
    const out = await records([gzipSync(`{"a":1}\n${long}\n{"b":2}\n`)]);
    expect(out).toEqual(['{"a":1}', '\u0000', '{"b":2}']);
  });

  it('[CRAWL-10] hands over an array element longer than 1 MiB as one unreadable record, and the elements after it', async () => {
    const long = `{"path":"${'a'.repeat(30 * 1024 * 1024)}"}`;
    const out = await records([gzipSync(`[{"a":1},${long},{"b":2}]`)], 'json-array');
    expect(out).toEqual(['{"a":1}', '\u0000', '{"b":2}']);
  });

  it('[CRAWL-5] detects gzip by its magic bytes even when they arrive one byte at a time', async () => {
    const gz = gzipSync('{"a":1}\n{"b":2}\n');
    expect(await records([gz.subarray(0, 1), gz.subarray(1, 2), gz.subarray(2)])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('[CRAWL-4] reads NDJSON labelled application/json as lines, and skips a byte order mark', async () => {
    expect(await records([Buffer.from('\uFEFF{"a":1}\n{"b":2}')], 'json-array')).toEqual(['{"a":1}', '{"b":2}']);
    expect(await records([Buffer.from('\uFEFF [{"a":1},{"b":2}]')], null)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('[CRAWL-25] stops at the inflated cap with the real error, not an abort', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    await expect(records([bomb], null, { maxWireBytes: 1024 * 1024, maxInflatedBytes: 1024 * 1024 })).rejects.toEqual(
      new BodyTooLargeError('inflated'),
    );
    await expect(
      records([Buffer.alloc(600 * 1024), Buffer.alloc(600 * 1024)], null, { ...limits, maxWireBytes: 1024 * 1024 }),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
