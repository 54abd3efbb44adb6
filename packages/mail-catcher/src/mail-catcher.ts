import { randomUUID } from 'node:crypto';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message as the catcher received it, parsed. */
export interface CaughtMessage {
  /** The catcher's own id for it. */
  id: string;
  receivedAt: string;
  /** What the client said in MAIL FROM and RCPT TO. */
  envelope: { from: string | null; to: string[] };
  /** The headers, as text (`Name <a@b.example>`). */
  from: string;
  to: string;
  subject: string;
  messageId: string | null;
  text: string;
  html: string | null;
  /** Every header, lower-case names, each value as text. */
  headers: Record<string, string>;
  /** The username the client authenticated with, if it did. */
  authenticatedAs: string | null;
}

/** An SMTP reply the catcher gives to every recipient while refusing (451: try later; 550: no). */
export interface Refusal {
  code: number;
  message?: string;
}

export interface MailCatcherOptions {
  /** 0 (default): the system picks a free port. */
  port?: number;
  /** 127.0.0.1 by default: the catcher never listens beyond this machine unless told to. */
  host?: string;
  /** Messages kept, oldest dropped first. */
  maxMessages?: number;
  /** Largest message accepted; a larger one is answered 552. */
  maxMessageBytes?: number;
  /** Credentials AUTH must give (others get 535); unset: AUTH is optional and any login is taken. */
  credentials?: { user: string; pass: string };
}

export interface MailCatcher {
  /** An SMTP_URL for it: `smtp://127.0.0.1:<port>` (with the credentials when it has some). */
  url: string;
  port: number;
  host: string;
  /** What it received, oldest first. */
  messages(): CaughtMessage[];
  /** The first message (already received or still to come) that matches, or a timeout error. */
  waitForMessage(predicate?: (message: CaughtMessage) => boolean, timeoutMs?: number): Promise<CaughtMessage>;
  /** Refuse every recipient with this reply until called with null. */
  refuse(reply: Refusal | null): void;
  /** Goes down: stops listening and drops its connections (the port stays its own to reopen). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

const addressText = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');

const headerText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && 'text' in value && typeof value.text === 'string') return value.text;
  if (value && typeof value === 'object' && 'value' in value) return String(value.value);
  return JSON.stringify(value);
};

/**
 * A real SMTP server in process that keeps what it receives (smtp-server, mailparser): the tests'
 * SMTP peer, and `pnpm start`'s, so the demo's emails can be read with nothing installed. No TLS
 * (it listens on loopback), AUTH taken over plain text.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 500;
  const maxBytes = options.maxMessageBytes ?? 10 * 1024 * 1024;
  const caught: CaughtMessage[] = [];
  const waiters = new Set<(message: CaughtMessage) => void>();
  let refusal: Refusal | null = null;

  const keep = (message: CaughtMessage) => {
    caught.push(message);
    if (caught.length > maxMessages) caught.shift();
    for (const waiter of [...waiters]) waiter(message);
  };

  const serverOptions: SMTPServerOptions = {
    banner: 'vt mail catcher',
    disabledCommands: ['STARTTLS'],
    authOptional: options.credentials === undefined,
    allowInsecureAuth: true,
    size: maxBytes,
    logger: false,
    // A stopped catcher drops its clients at once rather than waiting for them.
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      const wanted = options.credentials;
      if (wanted && (auth.username !== wanted.user || auth.password !== wanted.pass)) {
        return callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
      }
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onRcptTo(_address, _session, callback) {
      if (!refusal) return callback();
      callback(
        Object.assign(new Error(refusal.message ?? 'refused by the mail catcher'), { responseCode: refusal.code }),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          return callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const mailFrom = session.envelope.mailFrom;
            keep({
              id: randomUUID(),
              receivedAt: new Date().toISOString(),
              envelope: {
                from: mailFrom ? (mailFrom.address ?? null) : null,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              from: addressText(parsed.from),
              to: addressText(parsed.to),
              subject: parsed.subject ?? '',
              messageId: parsed.messageId ?? null,
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : null,
              headers: Object.fromEntries([...parsed.headers].map(([name, value]) => [name, headerText(value)])),
              authenticatedAs: typeof session.user === 'string' ? session.user : null,
            });
            callback();
          },
          (err: Error) => callback(Object.assign(err, { responseCode: 554 })),
        );
      });
    },
  };

  let server: SMTPServer | undefined;
  let port = options.port ?? 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = new SMTPServer(serverOptions);
      // Listening first: an 'error' event with no listener would throw (a client that hangs up).
      next.on('error', () => {});
      next.server.once('error', reject);
      next.listen(port, host, () => {
        next.server.off('error', reject);
        port = (next.server.address() as { port: number }).port;
        server = next;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      if (!current) return resolve();
      current.close(() => resolve());
    });

  await listen();
  const credentials = options.credentials
    ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.pass)}@`
    : '';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `smtp://${credentials}${urlHost}:${port}`,
    port,
    host,
    messages: () => [...caught],
    waitForMessage(predicate = () => true, timeoutMs = 10_000) {
      const found = caught.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching message within ${timeoutMs} ms (${caught.length} caught)`));
        }, timeoutMs);
        const waiter = (message: CaughtMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        waiters.add(waiter);
      });
    },
    refuse(reply) {
      refusal = reply;
    },
    stop,
    async restart() {
      if (!server) await listen();
    },
    clear() {
      caught.length = 0;
    },
    close: stop,
  };
}
