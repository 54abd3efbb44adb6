import type { Logger } from '@vt/logger';
import express from 'express';
import type { Registry } from 'prom-client';
import { healthRouter, type ReadinessCheck } from './health.ts';
import { applyHttpDefaults } from './http-defaults.ts';
import { type RunningServer, startHttpServer } from './http-server.ts';

/**
 * The small HTTP server of a process that serves no API (a worker): /healthz, /readyz and
 * /metrics, and a JSON 404 for anything else.
 */
export function startHealthServer(options: {
  registry: Registry;
  checks: ReadinessCheck[];
  isClosing: () => boolean;
  port: number;
  host: string;
  logger: Logger;
}): Promise<RunningServer> {
  const app = express();
  applyHttpDefaults(app, { logger: options.logger });
  app.use(healthRouter({ registry: options.registry, checks: options.checks, isClosing: options.isClosing }));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  return startHttpServer(app, options.port, options.host);
}
