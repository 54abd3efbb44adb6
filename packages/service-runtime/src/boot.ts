import { setFlagsFromString } from 'node:v8';
import { ConfigError, parseConfig } from '@vt/config';
import { createLogger, type Logger } from '@vt/logger';
import type { z } from 'zod';
import { runService, type Service } from './lifecycle.ts';

interface BaseConfig {
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface BootOptions {
  /**
   * Whether Prisma queries are the app's hot path (the read API and the console). The only
   * WebAssembly in an app is Prisma's query compiler; V8's optimising tier for it costs about
   * 35 MB of memory per process (the gateway idles at 180 MB with it, 145 MB without), and an app
   * that runs a few queries per batch or job does as well on the baseline tier. Where queries are
   * the work, the baseline tier measured 1.5 times the CPU per query, so they keep both tiers.
   */
  queryBound?: boolean;
}

/**
 * The whole of an app's main.ts: parse config once (a bad variable stops the app with a message
 * naming it, exit code 78 as sysexits' EX_CONFIG), build the logger, start, stop on SIGTERM/SIGINT.
 */
export function bootApp<S extends z.ZodObject>(
  name: string,
  schema: S,
  start: (config: z.output<S>, logger: Logger) => Promise<Service>,
  { queryBound = false }: BootOptions = {},
): void {
  // Before the first query compiles the module: Prisma loads it on first use.
  if (!queryBound) setFlagsFromString('--liftoff-only');
  let config: z.output<S> & BaseConfig;
  try {
    config = parseConfig(name, schema, process.env) as z.output<S> & BaseConfig;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger({ name, level: config.LOG_LEVEL });
  void runService(() => start(config, logger), { logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
}

/** Wraps a shutdown sequence so calling it twice runs it once and both callers wait for it. */
export function closeOnce(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}
