import { type ApiContact, buildOpenApiDocument } from '@vt/contracts';
import type { Logger } from '@vt/logger';
import {
  apiReferenceRouter,
  applyHttpDefaults,
  healthRouter,
  type ReadinessCheck,
  requestIdOf,
} from '@vt/service-runtime';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { sendApiError } from './api-error.ts';
import { crossOriginReads } from './cross-origin.ts';
import { createV1Router, type V1RouterDeps } from './v1-router.ts';

export interface ReadApiDeps extends V1RouterDeps {
  logger: Logger;
  readinessChecks: ReadinessCheck[];
  isClosing: () => boolean;
  /** The operator's contact in /openapi.json (READ_API_CONTACT_URL, READ_API_CONTACT_EMAIL). */
  contact?: ApiContact;
  /** Origins whose pages may call /v1 from a browser (READ_API_CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
}

/** The read API. Every answer is JSON; every error is `{error: {code, message}}`, never HTML. */
export function buildReadApi(deps: ReadApiDeps): Express {
  const app = express();
  // Security headers, X-Request-Id on every answer and in its log line, and never a 304.
  applyHttpDefaults(app, { logger: deps.logger });
  app.use(healthRouter({ registry: deps.registry, checks: deps.readinessChecks, isClosing: deps.isClosing }));

  const openApiDocument = buildOpenApiDocument(
    deps.routes.map((route) => route.meta.endpoint),
    { contact: deps.contact },
  );
  app.get('/openapi.json', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(openApiDocument);
  });
  app.use(apiReferenceRouter({ title: 'AI Visibility Tracking read API', path: '/docs', specUrl: '/openapi.json' }));
  app.use('/v1', crossOriginReads(deps.corsOrigins ?? []), createV1Router(deps));

  // An unknown path answers before anything reads the key.
  app.use((req, res) => sendApiError(res, 'NOT_FOUND', `No endpoint at ${req.path}.`));
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) return;
    // A path that cannot be decoded (`/v1/responses/%E0`) names nothing: 404, like any unknown path.
    if (err instanceof URIError || (err as { status?: number }).status === 400) {
      return sendApiError(res, 'NOT_FOUND', 'No endpoint at this path (it is not valid percent-encoding).');
    }
    deps.logger.error({ err, path: req.path, requestId: requestIdOf(res) }, 'read api request failed');
    sendApiError(res, 'INTERNAL_ERROR', 'The server failed to answer; try again shortly.');
  };
  app.use(onError);
  return app;
}
