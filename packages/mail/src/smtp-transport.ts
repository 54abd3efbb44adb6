import { createTransport, type Transporter } from 'nodemailer';

/** The SMTP server as SMTP_URL names it (the config schema checked its form). */
export interface SmtpServer {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. smtp://: STARTTLS when the server offers it. */
  secure: boolean;
  /** Refuse to go on without STARTTLS (credentials bound for a host off this machine). */
  requireTLS: boolean;
  auth?: { user: string; pass: string };
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** `smtp://user:p%40ss@host:587` → host, port, TLS and credentials (decoded). */
export function parseSmtpUrl(smtpUrl: string): SmtpServer {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const auth = url.username
    ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    : undefined;
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    // A password never crosses a network in clear: a server off this machine that offers no
    // STARTTLS is refused (and the email retried) rather than sent the credentials.
    requireTLS: !secure && auth !== undefined && !isLoopback(host),
    ...(auth ? { auth } : {}),
  };
}

/** The URL with its password (and user) replaced, for logs and banners. */
export function redactSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (url.username || url.password) {
    url.username = '***';
    url.password = '';
  }
  return url.toString().replace(/\/$/, '');
}

/** A nodemailer transport to the server: one connection per email, every SMTP step bounded by timeoutMs. */
export function createSmtpTransport(smtpUrl: string, timeoutMs: number): Transporter {
  const server = parseSmtpUrl(smtpUrl);
  return createTransport({
    ...server,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // The service writes every body itself: nothing in one may make nodemailer read a file or URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
}

/** The domain of MAIL_FROM's address (`Name <a@b.example>` → b.example): each Message-ID's right-hand side. */
export function fromDomain(mailFrom: string): string {
  const address = /<([^<>]*)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom;
  return address.trim().split('@').at(-1) ?? 'localhost';
}
