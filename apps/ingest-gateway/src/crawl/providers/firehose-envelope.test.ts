import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIREHOSE_MAX_RECORDS, FirehoseEnvelopeReader, NotFirehoseError } from './firehose-envelope.ts';

/** What a reader hands over for a body cut into the given chunks: each record's text, or null. */
function readAll(body: Buffer, cuts: number[] = []) {
  const texts: (string | null)[] = [];
  const reader = new FirehoseEnvelopeReader((text) => {
    if (text === null) texts.push(null);
    else texts.push(...text.split('\n').slice(0, -1));
  });
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.write(body.subarray(from, cut));
    from = cut;
  }
  reader.write(body.subarray(from));
  reader.end();
  return { texts, requestId: reader.requestId };
}

const delivery = (records: string[], format: (value: unknown) => string = (v) => JSON.stringify(v)) =>
  Buffer.from(
    format({
      requestId: 'ed4acda5-034f-9f42-bba1-f29aea6d7d8f',
      timestamp: 1578090901599,
      records: records.map((text) => ({ data: Buffer.from(text).toString('base64') })),
    }),
  );

describe("Firehose's envelope, read as it streams", () => {
  it('hands over every record and the request id, however the body is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 80 }).filter((s) => !s.includes('\n')),
          { maxLength: 20 },
        ),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom<(v: unknown) => string>(
          (v) => JSON.stringify(v),
          (v) => JSON.stringify(v, null, 2),
          // Encoders that write `/` as `\/` (PHP's json_encode does by default).
          (v) => JSON.stringify(v).replaceAll('/', '\\/'),
        ),
        (records, cuts, format) => {
          const body = delivery(records, format);
          const read = readAll(
            body,
            cuts.map((c) => c % (body.length + 1)),
          );
          expect(read.texts).toEqual(records);
          expect(read.requestId).toBe('ed4acda5-034f-9f42-bba1-f29aea6d7d8f');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the documented example, records of 64 KiB and more, and an empty record', () => {
    const example = Buffer.from(
      '{"requestId": "ed4acda5-034f-9f42-bba1-f29aea6d7d8f","timestamp": 1578090901599,"records": [{"data": "aGVsbG8="},{"data": "aGVsbG8gd29ybGQ="}]}',
    );
    expect(readAll(example).texts).toEqual(['hello', 'hello world']);
    const big = 'x'.repeat(100_000);
    expect(readAll(delivery([big, '', 'after']), [10, 70_000]).texts).toEqual([big, '', 'after']);
  });

  it('reads the envelope’s own records, not a key of that name in a string or a nested object', () => {
    const body = Buffer.from(
      '{"requestId":"\\"records\\":[","meta":{"records":[{"data":"bm8="}]},"timestamp":1,"records":[{"data":"aGk="}]}',
    );
    expect(readAll(body)).toEqual({ texts: ['hi'], requestId: '"records":[' });
  });

  it('reads a record that is not base64 as null, in its place, and goes on', () => {
    const records = [{ data: 'aGk=' }, { data: '%%%%' }, { data: 'abc' }, { data: 'aGk=' }, { data: 'aG=k' }];
    const body = Buffer.from(JSON.stringify({ requestId: 'r', timestamp: 1, records }));
    expect(readAll(body).texts).toEqual(['hi', null, null, 'hi', null]);
  });

  it('refuses what is not a Firehose delivery', () => {
    const refused = [
      '{"a":1}\n{"b":2}',
      '{"requestId":"r","timestamp":1,"records":[{"data":"aGk=","other":1}]}',
      '{"requestId":"r","timestamp":1,"records":[{"data":"aGk="}]',
      '{"requestId":"r","records":[]}',
      '{"requestId":"r","meta":{"records":[{"data":"aGk="}]},"timestamp":1}',
      '{"requestId":"r","timestamp":1,"records":[{"data":"a\\u0047k="}]}',
      `{"requestId":"r","timestamp":1,"records":[${Array.from({ length: FIREHOSE_MAX_RECORDS + 1 }, () => '{"data":""}').join(',')}]}`,
    ];
    for (const body of refused) expect(() => readAll(Buffer.from(body)), body.slice(0, 80)).toThrow(NotFirehoseError);
  });
});
