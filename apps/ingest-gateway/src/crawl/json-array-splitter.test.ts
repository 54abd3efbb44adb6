import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from './json-array-splitter.ts';

// The splitting itself; a JSON array's truth against NDJSON is in batch-classifier.test.ts.

const CHUNK = 64 * 1024; // what gunzip hands over

function split(body: string, chunk = CHUNK) {
  const records: string[] = [];
  const splitter = new JsonArraySplitter((r) => records.push(r));
  for (let i = 0; i < body.length; i += chunk) splitter.push(body.slice(i, i + chunk));
  splitter.end();
  return records;
}

describe('JsonArraySplitter on hostile elements', () => {
  it('[CRAWL-4] splits an element of 1 MiB of `"a"` strings in one pass, not in minutes', () => {
    // Each `"a"` followed by a quote is a suspect for a resync; this shape was quadratic (256 KiB: 14 s).
    const within = `{${'"a"'.repeat(Math.floor((1024 * 1024 - 2) / 3))}}`;
    const started = performance.now();
    expect(split(`[${within},{"b":1}]`)).toEqual([within, '{"b":1}']);
    // About 0.1 s on a busy 2-core machine; the quadratic scan took minutes.
    expect(performance.now() - started).toBeLessThan(2000);
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
});
