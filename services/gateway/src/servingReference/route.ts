/**
 * The API reference: `GET /openapi.json` (the document, built with the first request for it) and `GET /docs`, the
 * document rendered by Swagger UI from the gateway's own copy of swagger-ui-dist. Nothing is
 * fetched from another host, so the page works offline; its Content-Security-Policy allows this
 * origin only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Response, Router } from 'express';
import { B } from '@parcel-logistics/contracts';
import type { GatewayContext, Mounting } from '../context.ts';
import { failB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { openApiDocument } from './document.ts';

const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Swagger UI's inline style attributes need 'unsafe-inline' for styles; scripts come from this origin only. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parcel Logistics Service: API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const ASSETS: Record<string, { type: string; load: () => Buffer }> = {
  'swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    load: () => readFileSync(path.join(swaggerUi, 'swagger-ui.css')),
  },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    load: () => readFileSync(path.join(swaggerUi, 'swagger-ui-bundle.js')),
  },
  'init.js': { type: 'text/javascript; charset=utf-8', load: () => Buffer.from(INIT) },
  'favicon-32x32.png': { type: 'image/png', load: () => readFileSync(path.join(swaggerUi, 'favicon-32x32.png')) },
};

function page(res: Response, type: string, body: Buffer | string): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type(type).send(body);
}

/** What the reference routes reach: the reference data (the document's enumerations). */
export type ServingReferenceDeps = Mounting & Pick<GatewayContext, 'ref'>;

export function servingReference(router: Router, ctx: ServingReferenceDeps): void {
  const loaded = new Map<string, Buffer>();
  let document: Buffer | undefined;
  mount(router, ctx, 'openApiDocument', (_req, res) => {
    document ??= Buffer.from(JSON.stringify(openApiDocument(ctx.ref)));
    res.type('application/json').send(document);
  });
  mount(router, ctx, 'apiReference', (req, res) => {
    // Express also routes /docs/ here; the page's relative URLs would then resolve under /docs/docs/.
    // The relative redirect keeps working behind a proxy that serves the gateway under a path prefix.
    if (req.path.endsWith('/')) {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      return res.redirect(301, `../docs${query}`);
    }
    page(res, 'text/html; charset=utf-8', PAGE);
  });
  mount(router, ctx, 'apiReferenceAsset', (req, res) => {
    const name = String(req.params.asset);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return failB(res, B.apiNotFound, 404);
    let body = loaded.get(name);
    if (!body) loaded.set(name, (body = asset.load()));
    page(res, asset.type, body);
  });
}
