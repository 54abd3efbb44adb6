import type { ApiErrorCode } from '@vt/contracts';
import type { Logger } from '@vt/logger';
import { healthRouter, type ReadinessCheck } from '@vt/service-runtime';
import express, { type ErrorRequestHandler, type Express, type Response } from 'express';
import type { Registry } from 'prom-client';
import { buildOpenApiDocument } from './openapi-document.ts';

export interface ReadApiDeps {
  logger: Logger;
  registry: Registry;
  readinessChecks: ReadinessCheck[];
  isClosing: () => boolean;
}

function sendError(res: Response, status: number, code: ApiErrorCode, message: string) {
  res.status(status).json({ error: { code, message } });
}

/** The read API. Every answer is JSON; every error is `{error: {code, message}}`, never HTML. */
export function buildReadApi(deps: ReadApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(healthRouter({ registry: deps.registry, checks: deps.readinessChecks, isClosing: deps.isClosing }));

  const openApiDocument = buildOpenApiDocument();
  app.get('/openapi.json', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(openApiDocument);
  });

  app.use((req, res) => sendError(res, 404, 'NOT_FOUND', `No endpoint at ${req.path}`));
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    deps.logger.error({ err }, 'unhandled error');
    if (!res.headersSent) sendError(res, 500, 'INTERNAL_ERROR', 'Internal error');
  };
  app.use(onError);
  return app;
}
