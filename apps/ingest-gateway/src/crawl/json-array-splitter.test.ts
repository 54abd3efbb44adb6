import { CrawlerIpIndex } from '@vt/attribution';
import { describe, expect, it } from 'vitest';
import { BatchClassifier } from './batch-classifier.ts';
import { JsonArraySplitter } from './json-array-splitter.ts';
import { MAX_RECORD_BYTES, UNREADABLE_RECORD } from './record-cap.ts';

// The splitting itself; a JSON array's truth against NDJSON is in batch-classifier.test.ts.

const CHUNK = 64 * 1024; // what gunzip hands over

function split(body: string, chunk = CHUNK, maxElementBytes?: number) {
  const records: string[] = [];
  const splitter = new JsonArraySplitter((r) => records.push(r), maxElementBytes);
  for (let i = 0; i < body.length; i += chunk) splitter.push(body.slice(i, i + chunk));
  splitter.end();
  return records;
}

const event = (path: string) =>
  JSON.stringify({
    timestamp: '2026-11-20T00:00:00Z',
    host: 'example.com',
    path,
    userAgent: 'GPTBot/1.2',
    statusCode: 200,
  });

describe('JsonArraySplitter on hostile and oversized elements', () => {
  it('[CRAWL-4] splits an element of 1 MiB of `"a"` strings in one pass, not in minutes', () => {
    // Each `"a"` followed by a quote is a suspect for a resync; this shape was quadratic (256 KiB: 14 s).
    const within = `{${'"a"'.repeat(Math.floor((MAX_RECORD_BYTES - 2) / 3))}}`;
    const over = `{${'"a"'.repeat(Math.floor((4 * MAX_RECORD_BYTES) / 3))}}`;
    const started = performance.now();
    expect(split(`[${within},{"b":1}]`)).toEqual([within, '{"b":1}']);
    expect(split(`[${over},{"b":1}]`)).toEqual([UNREADABLE_RECORD, '{"b":1}']);
    // About 0.1 s on a busy 2-core machine; the quadratic scan took minutes for the first alone.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('[CRAWL-10] an element over 1 MiB is one unreadable record, and the elements after it are read', () => {
    const big = event(`/${'x'.repeat(1.5 * 1024 * 1024)}`);
    const classifier = new BatchClassifier('example.com', new CrawlerIpIndex([]));
    const splitter = new JsonArraySplitter((r) => classifier.line(r));
    const body = `[${big}, ${event('/small')}]`;
    const held = splitter as unknown as { carried: string; sinceCut: string | null };
    for (let i = 0; i < body.length; i += CHUNK) {
      splitter.push(body.slice(i, i + CHUNK));
      // Skipping it holds at most the cap (the text it had when it crossed it is let go), never the element.
      expect(held.carried.length + (held.sinceCut?.length ?? 0)).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    }
    splitter.end();
    const summary = classifier.summary();
    expect(summary).toMatchObject({ received: 2, unreadable: 1, kept: 1 });
    expect(summary.events.map((e) => e.path)).toEqual(['/small']);
  });

  it('[CRAWL-10] an element just over the cap in multi-byte characters is unreadable; one just under is read', () => {
    // The cap counts UTF-8 bytes, as for NDJSON lines: 'é' is two of them.
    const sized = (bytes: number) => `"${'é'.repeat((bytes - 2) / 2)}"`;
    expect(split(`[${sized(MAX_RECORD_BYTES)}]`)).toEqual([sized(MAX_RECORD_BYTES)]);
    expect(split(`[${sized(MAX_RECORD_BYTES + 2)}]`)).toEqual([UNREADABLE_RECORD]);
  });

  it('[CRAWL-4] gives the same elements however the body is cut into chunks', () => {
    const body = `[{"a":"}],{[\\"x,{é😀"}, {"b":[1,{"c":2}]},{"host":"exa,{"path":"/p","d":"\\\\"} , 3, "s,]" ]`;
    const whole = split(body, body.length);
    expect(whole).toEqual([
      '{"a":"}],{[\\"x,{é😀"}',
      '{"b":[1,{"c":2}]}',
      '{"host":"exa',
      '{"path":"/p","d":"\\\\"}',
      '3',
      '"s,]" ',
    ]);
    for (let chunk = 1; chunk <= 17; chunk++) expect(split(body, chunk), `chunks of ${chunk}`).toEqual(whole);
  });

  it('[CRAWL-10] an element cut off inside a string resyncs at the next one even when it is over the cap', () => {
    // The broken element grows past the cap before the next element's first key shows where it ended.
    const body = `[{"a":1},{"host":"ex${'x'.repeat(200)},{"host":"example.com","n":2},{"c":3}]`;
    for (const chunk of [1, 2, 7, 64, body.length]) {
      expect(split(body, chunk, 64), `chunks of ${chunk}`).toEqual([
        '{"a":1}',
        UNREADABLE_RECORD,
        '{"host":"example.com","n":2}',
        '{"c":3}',
      ]);
    }
    // Within the cap, the broken element is handed over as it was (and fails to parse).
    expect(split(body, 5)[1]).toBe(`{"host":"ex${'x'.repeat(200)}`);
  });
});
