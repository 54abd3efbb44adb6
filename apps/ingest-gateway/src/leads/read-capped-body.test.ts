import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCappedBody } from './read-capped-body.ts';

describe('readCappedBody', () => {
  it('returns the exact bytes of a body that comes in several chunks', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body, 10);
    body.write(Buffer.from([0xe2, 0x82]));
    body.write(Buffer.from([0xac, 0x00]));
    body.end(Buffer.from('abcdef'));
    expect(await read).toEqual(Buffer.from([0xe2, 0x82, 0xac, 0x00, ...Buffer.from('abcdef')]));
  });

  it('an empty body is an empty buffer; a body of exactly the cap is whole', async () => {
    const empty = new PassThrough();
    const readEmpty = readCappedBody(empty, 4);
    empty.end();
    expect(await readEmpty).toEqual(Buffer.alloc(0));
    const full = new PassThrough();
    const readFull = readCappedBody(full, 4);
    full.end('1234');
    expect((await readFull).toString()).toBe('1234');
  });

  it('answers too_large at the first chunk past the cap, leaving the rest unread and the stream open', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body, 4);
    body.write('123');
    body.write('45');
    expect(await read).toBe('too_large');
    body.write('more that nobody reads');
    expect(body.destroyed).toBe(false);
    expect(body.isPaused()).toBe(true);
    expect(body.listenerCount('data')).toBe(0);
  });

  it('rejects when the sender hangs up before the end of the body', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body, 100);
    body.write('{"contact":');
    body.destroy();
    await expect(read).rejects.toThrow(/cut off/);
  });

  it('rejects at once when the sender hung up before the read began (no listener would ever fire)', async () => {
    const body = new PassThrough();
    body.write('{"contact":');
    body.destroy();
    await new Promise((r) => setImmediate(r)); // 'close' has been emitted
    await expect(readCappedBody(body, 100)).rejects.toThrow(/cut off/);
    const failed = new PassThrough();
    failed.on('error', () => {});
    failed.destroy(new Error('socket reset'));
    await new Promise((r) => setImmediate(r));
    await expect(readCappedBody(failed, 100)).rejects.toThrow('socket reset');
  });

  it('rejects with the stream’s error', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body, 100);
    body.destroy(new Error('socket reset'));
    await expect(read).rejects.toThrow('socket reset');
  });
});
