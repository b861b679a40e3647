/**
 * The public tracking page in headless Chromium (Debian's, driven by playwright-core):
 * screenshots at desktop and phone width kept as artefacts, the timeline's order and the absence
 * of every personal field asserted on the rendered DOM, axe-core (from npm, injected by the test)
 * with no serious or critical violation, and nothing loaded from elsewhere nor blocked by the CSP.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium } from '../support/browser.ts';
import type { TestStack } from '../support/stack.ts';
import { forbiddenTexts, stackWithDeliveredParcel, type trackedParcel } from './parcels.ts';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 812 } } as const;

let stack: TestStack;
let browser: Browser;
let parcel: Awaited<ReturnType<typeof trackedParcel>>;
beforeAll(async () => {
  ({ stack, parcel } = await stackWithDeliveredParcel());
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack.destroy();
});

/** A page that records every request to another origin, console error, CSP report and failed answer. */
async function open(viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport, javaScriptEnabled: true });
  const problems: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== new URL(stack.url).origin) problems.push(`elsewhere ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}

/** axe-core's violations of impact serious or critical, evaluated in the page (not a script tag, which the CSP would block). */
async function axeViolations(page: Page) {
  const result = await page.evaluate(async (source: string) => {
    (0, eval)(source);
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> };
      }
    ).axe;
    return axe.run();
  }, AXE);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
}

describe.each(Object.entries(VIEWPORTS))('the parcel page at %s width', (name, viewport) => {
  test('timeline most recent first, no personal field in the DOM, readable, axe-clean, screenshot kept', async () => {
    const { page, problems } = await open(viewport);
    const answer = await page.goto(`${stack.url}/track/${parcel.tn}`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);

    const times = await page.$$eval('ol li time', (els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThanOrEqual(2);
    const ms = times.map((t) => Date.parse(t));
    expect(ms).toEqual([...ms].sort((a, b) => b - a));
    expect(await page.$$eval('ol li', (els) => els.map((e) => e.getAttribute('data-status')))).toContain('DL_DL');
    expect(await page.textContent('ol li time')).toMatch(/^\d{1,2} \w{3} 2026, \d{2}:\d{2} SGT$/);
    expect(await page.textContent('[data-field="partner-tracking-no"]')).toBe(parcel.partner);
    expect(await page.textContent('[data-field="locker-station"]')).toMatch(/Singapore \d{6}$/);
    expect(await page.textContent('ol')).toContain('Singapore hub');
    expect(await page.textContent('ol')).not.toMatch(/Raffles|Changi|script/);
    expect(await page.$$('script')).toHaveLength(0);

    const dom = await page.evaluate(() => `${document.documentElement.outerHTML}\n${document.body.innerText}`);
    for (const text of forbiddenTexts(parcel.reference))
      expect({ text, found: dom.includes(text) }).toEqual({ text, found: false });

    // Readable at this width: nothing wider than the viewport, so no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `tracking-${name}.png`), fullPage: true });
    expect(problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);
});

test('the form and the miss page work without JavaScript, and are axe-clean at phone width', async () => {
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${stack.url}/track`, { waitUntil: 'load' });
  await page.fill('#tracking_number', ` ${parcel.tn.toLowerCase()} `);
  await Promise.all([page.waitForURL(`**/track/${parcel.tn}`), page.click('button[type="submit"]')]);
  expect(await page.textContent('h2')).toBe(`Parcel ${parcel.tn}`);
  await page.fill('#tracking_number', 'PXB3X6H0NEVAZ2J9R9');
  await Promise.all([page.waitForURL('**/track/PXB3X6H0NEVAZ2J9R9'), page.click('button[type="submit"]')]);
  expect(await page.textContent('[role="status"]')).toContain(
    'There is no tracking information for PXB3X6H0NEVAZ2J9R9',
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-miss-phone.png'), fullPage: true });
  await context.close();

  for (const at of ['/track', '/track/PXB3X6H0NEVAZ2J9R9']) {
    const { page: checked, problems } = await open(VIEWPORTS.phone);
    await checked.goto(`${stack.url}${at}`, { waitUntil: 'load' });
    expect({ at, violations: await axeViolations(checked) }).toEqual({ at, violations: [] });
    // The miss page's own 404 is its documented answer, and Chromium reports it as a failed load.
    expect(problems.filter((p) => !(at !== '/track' && p.includes('status of 404')))).toEqual([]);
    await checked.close();
  }
}, 60_000);
