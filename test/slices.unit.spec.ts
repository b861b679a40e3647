/**
 * House rule (docs/architecture.md "House rules"): a service's code is grouped by activity, one
 * folder (slice) each, and a slice's files are named one way in every service. In the gateway a
 * slice is named after its activity (`creatingOrder/`, `trackingParcel/`) and holds its HTTP route
 * in `route.ts`, which app.ts mounts; the folders that are not slices are the shared ones below.
 * In the other services a slice holds `handler.ts` or `worker.ts` (the end of this file).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const gateway = path.resolve(import.meta.dirname, '../services/gateway/src');
/** Shared by every route: authentication, and the HTTP plumbing (body, idempotency, rate limits). */
const SHARED = ['auth', 'http'];

const folders = readdirSync(gateway, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const slices = folders.filter((name) => !SHARED.includes(name));

test('the gateway has slices, and its shared folders are still there', () => {
  expect(slices.length).toBeGreaterThan(10);
  expect(folders).toEqual(expect.arrayContaining(SHARED));
});

test.each(slices)('gateway slice %s is named after its activity and holds route.ts', (slice) => {
  expect(slice).toMatch(/^[a-z]+ing[A-Z][A-Za-z]*$/);
  expect(readdirSync(path.join(gateway, slice))).toContain('route.ts');
});

test('app.ts mounts every slice from its route.ts', () => {
  const app = readFileSync(path.join(gateway, 'app.ts'), 'utf8');
  const mounted = [...app.matchAll(/from '\.\/([^/']+)\/route\.ts'/g)].map((m) => m[1]);
  expect(mounted.toSorted()).toEqual(slices.toSorted());
});

test('no shared folder holds a route', () => {
  for (const name of SHARED) expect(readdirSync(path.join(gateway, name))).not.toContain('route.ts');
});

/**
 * In the order, tracking, label and webhook services a slice is named after its activity and holds
 * `handler.ts` (the bus command it answers) or `worker.ts` (the log subscription or polling loop it
 * runs), or both; its other files are its own helpers and specs.
 */
const SERVICES = ['order', 'tracking', 'label', 'webhook'];
const serviceSlices = SERVICES.flatMap((service) => {
  const src = path.resolve(import.meta.dirname, `../services/${service}/src`);
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ service, slice: entry.name, files: readdirSync(path.join(src, entry.name)) }));
});

test('every service but the gateway has slices', () => {
  expect([...new Set(serviceSlices.map((s) => s.service))].sort()).toEqual([...SERVICES].sort());
});

test.each(serviceSlices.map((s) => [`${s.service}/${s.slice}`, s] as const))(
  'service slice %s is named after its activity and holds handler.ts or worker.ts',
  (_name, { slice, files }) => {
    expect(slice).toMatch(/^[a-z]+ing([A-Z][A-Za-z]*)?$/);
    expect(files.filter((f) => f === 'handler.ts' || f === 'worker.ts').length).toBeGreaterThan(0);
    expect(files.filter((f) => /^(route|dispatcher|service)\.ts$/.test(f))).toEqual([]);
  },
);
