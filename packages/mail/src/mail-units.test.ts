import { describe, expect, it } from 'vitest';
import { outgoingEmailSchema } from './email-schema.ts';
import { retryDelayMs } from './retry-schedule.ts';
import { smtpFailureOf } from './smtp-failure.ts';
import { fromDomain, parseSmtpUrl, redactSmtpUrl } from './smtp-transport.ts';

describe('retryDelayMs', () => {
  it('doubles from the base after each failed attempt, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 30_000, 3_600_000))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000,
    ]);
    expect(retryDelayMs(8, 30_000, 3_600_000)).toBe(3_600_000);
    expect(retryDelayMs(5000, 30_000, 3_600_000)).toBe(3_600_000);
  });
});

describe('parseSmtpUrl', () => {
  it('reads host, port, TLS and percent-encoded credentials', () => {
    expect(parseSmtpUrl('smtp://127.0.0.1:2525')).toEqual({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      requireTLS: false,
    });
    expect(parseSmtpUrl('smtps://mail.example.com')).toMatchObject({ port: 465, secure: true, requireTLS: false });
    expect(parseSmtpUrl('smtp://u%40x:p%3Ass@mail.example.com')).toEqual({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      auth: { user: 'u@x', pass: 'p:ss' },
    });
  });

  it('requires STARTTLS only when credentials go to a host off this machine', () => {
    expect(parseSmtpUrl('smtp://user:pass@localhost:1025').requireTLS).toBe(false);
    expect(parseSmtpUrl('smtp://user:pass@[::1]:1025')).toMatchObject({ host: '::1', requireTLS: false });
    expect(parseSmtpUrl('smtp://relay.internal:25').requireTLS).toBe(false);
    expect(parseSmtpUrl('smtp://user:pass@relay.internal:25').requireTLS).toBe(true);
  });

  it('redacts the credentials for logs', () => {
    expect(redactSmtpUrl('smtp://user:hunter2@mail.example.com:587')).toBe('smtp://***@mail.example.com:587');
    expect(redactSmtpUrl('smtps://mail.example.com')).toBe('smtps://mail.example.com');
  });

  it('takes the Message-ID domain from MAIL_FROM', () => {
    expect(fromDomain('AI Visibility <notify@vt.example>')).toBe('vt.example');
    expect(fromDomain('ops@acme.test')).toBe('acme.test');
  });
});

describe('smtpFailureOf', () => {
  it('is permanent only for a 5xx to the envelope or the message', () => {
    const permanent = (err: object) => smtpFailureOf(err).permanent;
    expect(permanent({ code: 'EENVELOPE', responseCode: 550, response: '550 no such user' })).toBe(true);
    expect(permanent({ code: 'EMESSAGE', responseCode: 554, response: '554 rejected' })).toBe(true);
    expect(permanent({ code: 'EENVELOPE', responseCode: 451, response: '451 try later' })).toBe(false);
    expect(permanent({ code: 'EAUTH', responseCode: 535, response: '535 bad login' })).toBe(false);
    expect(permanent({ code: 'ESOCKET', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toBe(false);
    expect(permanent(new Error('anything'))).toBe(false);
  });

  it('says what happened in a short line, with the password cut out', () => {
    const failure = smtpFailureOf({ code: 'EAUTH', response: '535 login hunter2 refused\r\n' }, ['hunter2']);
    expect(failure.summary).toBe('EAUTH: 535 login [redacted] refused');
    expect(smtpFailureOf({ code: 'EMESSAGE', response: 'x'.repeat(2000) }).summary.length).toBeLessThanOrEqual(300);
  });
});

describe('outgoingEmailSchema', () => {
  const email = { kind: 'test', to: 'ada@example.com', subject: 'Hi', text: 'Hello', dedupeKey: 'k' } as const;
  const problems = (input: object) => {
    const parsed = outgoingEmailSchema.safeParse({ ...email, ...input });
    return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
  };

  it('takes a well-formed email, and refuses each bad field by name', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ to: 'not an address' })).toEqual(['to']);
    expect(problems({ to: 'ada@example.com\r\nBcc: all@example.com' })).toEqual(['to']);
    expect(problems({ to: `${'a'.repeat(320)}@example.com` })).toEqual(['to']);
    expect(problems({ subject: 'two\nlines' })).toEqual(['subject']);
    expect(problems({ subject: '' })).toEqual(['subject']);
    expect(problems({ text: 'nul \u0000' })).toEqual(['text']);
    expect(problems({ html: 'x'.repeat(1_000_001) })).toEqual(['html']);
    expect(problems({ kind: 'spam' })).toEqual(['kind']);
    expect(problems({ teamId: 'not-a-uuid' })).toEqual(['teamId']);
    expect(problems({ extra: true })).toEqual(['']);
  });
});
