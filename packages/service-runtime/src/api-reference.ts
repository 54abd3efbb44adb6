import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

// Where swagger-ui-dist's files are. Found by resolving its package.json, not by importing the
// package: its entry point loads the whole 1.5 MB Swagger UI bundle into every process that
// imports this module (the ingest gateway and the workers too), for nothing. Resolved from this
// file's place (import.meta.url), which a bundled app keeps (scripts/build-apps.mjs).
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A human-readable API reference at `path`, rendered in the browser by Swagger UI from the
 * OpenAPI document at `specUrl`. Its assets come from the swagger-ui-dist package, so the page
 * works without internet access.
 */
export function apiReferenceRouter(options: { title: string; path: string; specUrl: string }): Router {
  const { path } = options;
  const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(options.title)}</title>
  <link rel="stylesheet" href="${path}/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="${path}/assets/swagger-ui-bundle.js"></script>
  <script src="${path}/reference.js"></script>
</body>
</html>
`;
  const boot = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(options.specUrl)}, dom_id: '#reference', deepLinking: true });\n`;
  const router = Router();
  router.get(path, (_req, res) => {
    res.type('html').send(page);
  });
  router.get(`${path}/reference.js`, (_req, res) => {
    res.type('application/javascript').send(boot);
  });
  router.use(`${path}/assets`, express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}
