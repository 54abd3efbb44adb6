import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger };

/**
 * Paths whose values never reach a log line: credentials of every kind, signatures, the crawl
 * event IP (used once to verify a crawler, then dropped) and lead bodies.
 */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'apiKey',
  'key',
  'secret',
  'signature',
  'password',
  'ip',
  'body',
  '*.authorization',
  '*.token',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.signature',
  '*.password',
  '*.ip',
  '*.body',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-webhook-signature"]',
  'req.headers["webhook-signature"]',
  'req.headers["x-forwarded-for"]',
  'req.headers["x-real-ip"]',
  'req.query.token',
  'req.remoteAddress',
  'req.remotePort',
  'crawlToken',
  'webhookSecret',
  '*.crawlToken',
  '*.webhookSecret',
];

export interface CreateLoggerOptions {
  name: string;
  level?: LoggerOptions['level'];
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/** One JSON logger per app. Errors are logged as `{ err }` so pino serialises the stack. */
export function createLogger({ name, level = 'info', destination }: CreateLoggerOptions): Logger {
  const options: LoggerOptions = {
    name,
    level,
    base: { app: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
