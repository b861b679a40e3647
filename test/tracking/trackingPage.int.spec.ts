/**
 * The public tracking page over HTTP: no account, the same 404 for every miss,
 * a strict Content-Security-Policy, caching headers, the JSON variant, hostile numbers, and the
 * per-address rate limit.
 */
import { raw } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { forbiddenTexts, stackWithDeliveredParcel, type trackedParcel } from './parcels.ts';

let stack: TestStack;
let parcel: Awaited<ReturnType<typeof trackedParcel>>;
beforeAll(async () => {
  ({ stack, parcel } = await stackWithDeliveredParcel());
}, 30_000);
afterAll(() => stack.destroy());

const get = (path: string, init: RequestInit = {}) => raw(`${stack.url}${path}`, { redirect: 'manual', ...init });

test('the page needs no account, is HTML with a strict CSP, no script, and is cached for a minute', async () => {
  const page = await get(`/track/${parcel.tn}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/unsafe|https?:|\*|script-src/);
  expect(page.headers.get('cache-control')).toBe('public, max-age=60');
  expect(page.headers.get('ratelimit-limit')).toBe('60');
  const html = page.body as string;
  expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
  // Spec "Tracking page": a location only as a public place, never a carrier's free text.
  expect(html).toContain('· Singapore hub');
  expect(html).not.toMatch(/Raffles|Changi|&lt;script/);
  expect(html).toContain(parcel.partner);
  for (const text of forbiddenTexts(parcel.reference))
    expect({ text, found: html.includes(text) }).toEqual({ text, found: false });
});

test('the JSON variant carries the same facts, most recent first, and nothing personal', async () => {
  const reply = await get(`/track/${parcel.tn}.json`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  expect(reply.headers.get('cache-control')).toBe('public, max-age=60');
  const data = reply.body.data;
  expect(Object.keys(data).sort()).toEqual([
    'activities',
    'carrier',
    'locker_station',
    'partner_tracking_no',
    'tracking_number',
  ]);
  expect(data.partner_tracking_no).toBe(parcel.partner);
  expect(Object.keys(data.locker_station).sort()).toEqual([
    'station_address',
    'station_code',
    'station_name',
    'zipcode',
  ]);
  const times = data.activities.map((a: { status_date_time: string }) => Date.parse(a.status_date_time));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  for (const a of data.activities)
    expect(Object.keys(a).sort()).toEqual(['location', 'status_code', 'status_date_time', 'status_desc']);
  const text = JSON.stringify(reply.body);
  for (const t of forbiddenTexts(parcel.reference)) expect({ t, found: text.includes(t) }).toEqual({ t, found: false });
});

test('an unknown number, a malformed one and hostile paths get the same 404, never a 5xx or a trace', async () => {
  const misses = [
    'PXB3X6H0NEVAZ2J9R9',
    'px' + parcel.tn.slice(2).toLowerCase(),
    '%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
    '%E0%A4%A',
    "'%20OR%201=1--",
    'A'.repeat(4000),
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
  ];
  for (const miss of misses) {
    const page = await get(`/track/${miss}`);
    expect({ miss: miss.slice(0, 40), status: page.status }).toEqual({ miss: miss.slice(0, 40), status: 404 });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.body).toContain('There is no tracking information for');
    expect(page.body).not.toMatch(/<img|onerror=alert|Error:|at .*\.ts/);
    const json = await get(`/track/${miss}.json`);
    expect({ miss: miss.slice(0, 40), status: json.status, body: json.body }).toEqual({
      miss: miss.slice(0, 40),
      status: 404,
      body: { code: 1, message: 'No Record(s)', data: [] },
    });
  }
});

test('the search form works without script: GET /track?tracking_number= answers 303 to the page', async () => {
  const form = await get('/track');
  expect(form.status).toBe(200);
  expect(form.body).toContain('<form method="get" action="/track"');
  const typed = await get(`/track?tracking_number=${encodeURIComponent(` ${parcel.tn.toLowerCase()} `)}`);
  expect(typed.status).toBe(303);
  expect(typed.headers.get('location')).toBe(`/track/${parcel.tn}`);
  const hostile = await get(`/track?tracking_number=${encodeURIComponent('<b>x</b>/../y')}`);
  expect(hostile.status).toBe(303);
  expect(hostile.headers.get('location')).toBe('/track/%3CB%3EX%3C%2FB%3E%2F..%2FY');
});

test('rate limited per client address: past the limit, 429 with Retry-After, on the page and the JSON alike', async () => {
  const limited = await startTestStack({ PARCEL_TRACK_RATE_LIMIT_PER_MIN: '3' });
  try {
    for (let i = 0; i < 3; i++) expect((await raw(`${limited.url}/track/PXB3X6H0NEVAZ2J9R9`, {})).status).toBe(404);
    const page = await raw(`${limited.url}/track/PXB3X6H0NEVAZ2J9R9`, {});
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toBe('20');
    expect(page.body).toContain('Too many requests');
    const json = await raw(`${limited.url}/track/PXB3X6H0NEVAZ2J9R9.json`, {});
    expect([json.status, json.body]).toEqual([429, { code: 1, message: 'Too many requests', data: [] }]);
    limited.clock.advance(20_000);
    expect((await raw(`${limited.url}/track`, {})).status).toBe(200);
  } finally {
    await limited.destroy();
  }
});

test('page loads are metered by route template, never by the number', async () => {
  await get(`/track/${parcel.tn}`);
  const metrics = (await get('/metrics')).body as string;
  expect(metrics).toMatch(/parcel_http_request_duration_seconds_count\{[^}]*route="\/track\/:tracking_number"/);
  expect(metrics).not.toContain(parcel.tn);
});
