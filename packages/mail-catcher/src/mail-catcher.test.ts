import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCaughtMail } from './caught-mail-server.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

// The catcher as a client sees it: a real SMTP server on loopback that keeps what it received,
// refuses when told to, goes down and comes back on the same port.

const started: MailCatcher[] = [];
async function catcher(options: Parameters<typeof startMailCatcher>[0] = {}) {
  const made = await startMailCatcher(options);
  started.push(made);
  return made;
}
afterAll(async () => {
  for (const made of started) await made.close();
});

const send = (url: string, message: Record<string, unknown> = {}) =>
  createTransport(url).sendMail({
    from: 'AI Visibility <notify@vt.example>',
    to: 'ada@example.com',
    subject: 'Hello',
    text: 'plain words',
    html: '<p>html words</p>',
    ...message,
  });

describe('the mail catcher', () => {
  it('keeps each message it receives, parsed, and wakes whoever waits for it', async () => {
    const c = await catcher();
    expect(c.url).toBe(`smtp://127.0.0.1:${c.port}`);
    const waiting = c.waitForMessage((m) => m.subject === 'Second');
    await send(c.url, { messageId: '<first@vt.example>' });
    await send(c.url, { subject: 'Second', to: 'grace@example.com' });
    const second = await waiting;
    expect(second.envelope).toEqual({ from: 'notify@vt.example', to: ['grace@example.com'] });
    const [first] = c.messages();
    expect(first).toMatchObject({
      from: '"AI Visibility" <notify@vt.example>',
      to: 'ada@example.com',
      subject: 'Hello',
      messageId: '<first@vt.example>',
      text: 'plain words',
      html: '<p>html words</p>',
      authenticatedAs: null,
    });
    expect(first?.headers['message-id']).toBe('<first@vt.example>');
    await expect(c.waitForMessage((m) => m.subject === 'never', 100)).rejects.toThrow(/no matching message/);
  });

  it('refuses every recipient with the reply it is given, until told to stop', async () => {
    const c = await catcher();
    c.refuse({ code: 550, message: 'no such user' });
    await expect(send(c.url)).rejects.toMatchObject({ responseCode: 550, code: 'EENVELOPE' });
    c.refuse({ code: 451, message: 'try later' });
    await expect(send(c.url)).rejects.toMatchObject({ responseCode: 451 });
    c.refuse(null);
    await send(c.url);
    expect(c.messages()).toHaveLength(1);
  });

  it('goes down (connections refused) and comes back on the same port', async () => {
    const c = await catcher();
    await c.stop();
    await expect(send(c.url)).rejects.toMatchObject({ code: 'ESOCKET' });
    await c.restart();
    await send(c.url);
    expect(c.messages()).toHaveLength(1);
  });

  it('with credentials, takes only those: a wrong password gets 535', async () => {
    const c = await catcher({ credentials: { user: 'mailer', pass: 'p@ss word' } });
    expect(c.url).toBe(`smtp://mailer:p%40ss%20word@127.0.0.1:${c.port}`);
    const wrong = c.url.replace('p%40ss%20word', 'nope');
    await expect(send(wrong)).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
    await send(c.url);
    expect(c.messages()[0]?.authenticatedAs).toBe('mailer');
  });

  it('answers its messages over HTTP, newest first, or the copies of one Message-ID', async () => {
    const c = await catcher();
    const http = await serveCaughtMail(c);
    try {
      await send(c.url, { messageId: '<one@vt.example>' });
      await send(c.url, { messageId: '<two@vt.example>', subject: 'Two' });
      const all = (await (await fetch(`${http.url}/messages`)).json()) as { messages: { subject: string }[] };
      expect(all.messages.map((m) => m.subject)).toEqual(['Two', 'Hello']);
      const one = await fetch(`${http.url}/messages?messageId=${encodeURIComponent('<one@vt.example>')}`);
      expect(((await one.json()) as { messages: unknown[] }).messages).toHaveLength(1);
      expect((await fetch(`${http.url}/nothing`)).status).toBe(404);
      expect((await fetch(`${http.url}/messages`, { method: 'POST' })).status).toBe(404);
    } finally {
      await http.close();
    }
  });
});
