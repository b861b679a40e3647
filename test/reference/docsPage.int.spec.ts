/**
 * The API reference page: GET /docs renders the document in headless Chromium (Debian's, driven by
 * playwright-core) with every operation listed, without one request to another host and without a
 * Content-Security-Policy violation. The screenshot is kept as a test artefact. GET /docs/ redirects
 * there, so that the page's relative asset URLs do not resolve under /docs/docs/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ADMIN_OPERATIONS, OPERATIONS, openApiPath } from '@parcel-logistics/contracts/api';
import { ARTIFACTS, launchChromium } from '../support/browser.ts';
import { raw } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack.destroy();
});

test('GET /docs carries a Content-Security-Policy that allows this origin only', async () => {
  const page = await raw(`${stack.url}/docs`, {});
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/https?:|\*/);
});

test('GET /docs/ (a trailing slash) is sent to /docs, whose relative asset URLs resolve; the query string goes along', async () => {
  for (const [asked, target] of [
    ['/docs/', '/docs'],
    ['/docs/?x=1', '/docs?x=1'],
  ]) {
    const answer = await fetch(`${stack.url}${asked}`, { redirect: 'manual' });
    expect(answer.status).toBe(301);
    const location = new URL(answer.headers.get('location')!, `${stack.url}${asked}`);
    expect(`${location.pathname}${location.search}`).toBe(target);
  }
  const followed = await raw(`${stack.url}/docs/`, {});
  expect(followed.status).toBe(200);
  expect(followed.body).toContain('<div id="swagger-ui">');
});

test.each(['/docs', '/docs/'])(
  'Chromium renders %s with every operation listed, from this origin alone',
  async (address) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== new URL(stack.url).origin) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${stack.url}${address}`, { waitUntil: 'load' });
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    const documented = [...OPERATIONS, ...ADMIN_OPERATIONS].map(
      (op) => `${op.method.toUpperCase()} ${openApiPath(op.path)}`,
    );
    expect([...listed].sort()).toEqual([...documented].sort());
    expect(await page.title()).toContain('API reference');

    expect(new URL(page.url()).pathname).toBe('/docs');
    if (address === '/docs') {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'docs.png'), fullPage: true });
    }
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  },
  60_000,
);
