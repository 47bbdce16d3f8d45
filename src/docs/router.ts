import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import type { HandlerTable } from '../methods';
import { buildOpenApiDocument, type ExtraPaths } from './openapi';

/** The files of the local swagger-ui-dist package the page loads: no CDN, works offline. */
const UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>TON HTTP API v2</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

// Relative to the page, so it works behind a proxy that mounts the API under another prefix.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  tryItOutEnabled: false,
});
`;

/**
 * `GET /api/v2/` (Swagger UI, as toncenter serves its docs there), `GET /api/v2/openapi.json`
 * (the OpenAPI 3.1 document generated from the handler table) and the UI's static files under
 * `/api/v2/docs/`. `extraPaths` adds documented routes outside the v2 table (e.g. /localnet/*).
 */
export function createDocsRouter(table: HandlerTable, extraPaths: ExtraPaths = {}): Router {
  const document = JSON.stringify(buildOpenApiDocument(table, extraPaths));
  // The package's folder, found without loading its index, which evaluates the 1.4 MB UI bundle
  // in Node (~0.2 s of every start) only to export its path.
  const uiRoot = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = Router({ strict: true });
  router.get('/', (req: Request, res: Response) => {
    // The page's relative links need the trailing slash: /api/v2 -> /api/v2/.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) {
      res.redirect(301, `${req.baseUrl}/`);
      return;
    }
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get('/openapi.json', (_req: Request, res: Response) => {
    res.type('application/json').send(document);
  });
  router.get('/docs/init.js', (_req: Request, res: Response) => {
    res.type('text/javascript').send(INIT_SCRIPT);
  });
  router.get('/docs/:file', (req: Request, res: Response, next) => {
    const file = String(req.params['file']);
    const type = UI_FILES[file];
    if (!type) {
      next();
      return;
    }
    res.type(type).set('Cache-Control', 'public, max-age=86400').sendFile(path.join(uiRoot, file));
  });
  return router;
}
