import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './index.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes one JSON object per line with the app name, an ISO time and a text level', () => {
    const { lines, destination } = capture();
    createLogger({ name: 'read-api', destination }).info({ port: 3000 }, 'listening');
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ app: 'read-api', level: 'info', msg: 'listening', port: 3000 });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it('redacts credentials, signatures, IPs and bodies wherever they appear', () => {
    const { lines, destination } = capture();
    createLogger({ name: 'ingest-gateway', destination }).warn(
      {
        token: 'vtc_secret-token',
        ip: '192.0.2.7',
        event: { ip: '198.51.100.1', path: '/pricing' },
        lead: { body: '{"contact":"ada@example.com"}' },
        req: {
          headers: {
            authorization: 'Bearer vt_live_x',
            'x-webhook-signature': 'abc123',
            'webhook-signature': 'v1,c3Rk',
          },
          query: { token: 'q' },
        },
        webhookSecret: 'whsec_x',
      },
      'rejected',
    );
    const text = lines[0]!;
    for (const secret of [
      'vtc_secret-token',
      '192.0.2.7',
      '198.51.100.1',
      'ada@example.com',
      'vt_live_x',
      'abc123',
      'v1,c3Rk',
      'whsec_x',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(text).event.path).toBe('/pricing');
  });

  it('redacts them under an error, a job and headers one and two objects down', () => {
    const { lines, destination } = capture();
    const err = Object.assign(new Error('upstream refused'), {
      headers: { authorization: 'Bearer vt_live_deep', cookie: 'vt_session=vts_deep' },
      response: { headers: { 'webhook-signature': 'v1,sig_two_down' } },
    });
    createLogger({ name: 'x', destination }).error(
      {
        err,
        job: { data: { ip: '203.0.113.77', path: '/kept' } },
        events: [{ ip: '192.0.2.99', path: '/a' }],
        upstream: { headers: { cookie: 'vts_cookie', 'x-webhook-signature': 'sig_hdr', 'x-real-ip': '198.51.100.9' } },
      },
      'failed',
    );
    const text = lines[0]!;
    for (const secret of [
      'vt_live_deep',
      'vts_deep',
      'sig_two_down',
      '203.0.113.77',
      'vts_cookie',
      'sig_hdr',
      '198.51.100.9',
      '192.0.2.99',
    ]) {
      expect(text).not.toContain(secret);
    }
    const entry = JSON.parse(text);
    expect(entry.err.message).toBe('upstream refused');
    expect(entry.job.data.path).toBe('/kept');
    expect(entry.events[0].path).toBe('/a');
  });

  it('serialises errors under err with their stack', () => {
    const { lines, destination } = capture();
    createLogger({ name: 'x', destination }).error({ err: new Error('boom') }, 'failed');
    const entry = JSON.parse(lines[0]!);
    expect(entry.err.message).toBe('boom');
    expect(entry.err.stack).toContain('Error: boom');
  });
});
