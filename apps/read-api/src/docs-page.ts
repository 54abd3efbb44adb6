import express, { Router } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>AI Visibility Tracking read API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/reference.js"></script>
</body>
</html>
`;

const BOOT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });\n`;

/**
 * A human-readable reference at /docs, rendered in the browser by Swagger UI from /openapi.json.
 * Its assets come from the swagger-ui-dist package, so the page works without internet access.
 */
export function docsRouter(): Router {
  const router = Router();
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/reference.js', (_req, res) => {
    res.type('application/javascript').send(BOOT);
  });
  router.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}
