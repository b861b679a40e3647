/**
 * The API reference, contract tests that make drift impossible: the OpenAPI document
 * the gateway serves is valid OpenAPI 3.1 (an independent validator), names exactly the routes
 * express serves, holds every message of the catalogue, and its own examples conform to its own
 * schemas (ajv); the Order schema accepts every order create-order accepts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import * as messages from '@parcel-logistics/contracts';
import { validateCreateOrder } from '@parcel-logistics/contracts';
import { ADMIN_OPERATIONS, OPERATIONS, openApiPath } from '@parcel-logistics/contracts/api';
import { createAdminApp } from '@parcel-logistics/gateway';
import type { AdminDeps } from '@parcel-logistics/gateway';
import { bodyArb } from '@parcel-logistics/contracts/testing';
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import { raw } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { judge } from './support.ts';
import type { OpenApi } from './support.ts';

let stack: TestStack;
let document: OpenApi;
beforeAll(async () => {
  stack = await startTestStack();
  const served = await raw(`${stack.url}/openapi.json`, {});
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toMatch(/^application\/json/);
  document = served.body as OpenApi;
});
afterAll(() => stack.destroy());

test('GET /openapi.json is a valid OpenAPI 3.1 document (validate-api of @seriousme/openapi-schema-validator)', () => {
  expect(document.openapi).toBe('3.1.0');
  const dir = mkdtempSync(path.join(tmpdir(), 'parcel-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // The validator is ESM only; its own command line runs it outside jest's CommonJS.
    const run = spawnSync(path.resolve(__dirname, '../node_modules/.bin/validate-api'), [file], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toEqual({ valid: true });
    expect(run.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** What express 5 keeps of a router: its layers, each a route or a nested router (or other middleware). */
interface RouterLayers {
  stack: { route?: { path: string; methods: Record<string, boolean> }; handle: unknown }[];
}

/** `METHOD path` of every route of an express app, through its nested routers. */
function routesOf(router: RouterLayers): string[] {
  const found: string[] = [];
  for (const layer of router.stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods))
        found.push(`${method.toUpperCase()} ${openApiPath(layer.route.path)}`);
    } else if (typeof layer.handle === 'function' && Array.isArray((layer.handle as Partial<RouterLayers>).stack)) {
      found.push(...routesOf(layer.handle as unknown as RouterLayers));
    }
  }
  return found;
}

/** `METHOD path` of every operation of the document, of the operator API's tag or of the others. */
const documentedRoutes = (operator: boolean) =>
  Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.tags.includes('Operator API') === operator)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    .sort();

test('every route express serves is in the document, and every operation of the document is served', () => {
  const app = stack.server.listeners('request')[0] as unknown as { router: RouterLayers };
  const served = routesOf(app.router).sort();
  expect(served.length).toBeGreaterThanOrEqual(20);
  expect(new Set(served).size).toBe(served.length);
  expect(served).toEqual(documentedRoutes(false));
});

test('every route of the operator API is in the document under its own tag, on its own server, and the other way round', () => {
  // The routes as the app registers them; with a token set so that they are (nothing is called).
  const deps = { tokens: [{ name: 'ops', token: 'x'.repeat(32) }], trustProxy: false } as unknown as AdminDeps;
  const app = createAdminApp(deps) as unknown as { router: RouterLayers };
  const served = routesOf(app.router)
    .map((route) => route.replace(' /', ' /admin/v1/'))
    .sort();
  expect(served.length).toBe(ADMIN_OPERATIONS.length);
  expect(served).toEqual(documentedRoutes(true));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item)) {
      const operator = op.tags.includes('Operator API');
      expect({ path, operator }).toEqual({ path, operator: path.startsWith('/admin/v1/') });
      if (!operator) continue;
      expect(op.security).toEqual([{ adminBearer: [] }]);
      expect(op.servers?.[0]?.variables?.port?.default).toBe('9080');
    }
  }
  expect((document.components.securitySchemes as Record<string, unknown>).adminBearer).toMatchObject({
    type: 'http',
    scheme: 'bearer',
  });
});

/** A message template as a pattern: each argument may be any text. */
function templatePattern(render: (...args: string[]) => string, arity: number): RegExp {
  const marker = '\u0001';
  const text = render(...Array.from({ length: arity }, () => marker));
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(escaped.split(marker).join('[^"`|]+'));
}

/** The catalogue entries (`group.name`) whose text does not appear in `text`. */
function missingMessages(text: string, literal: (message: string) => string): { checked: number; missing: string[] } {
  const catalogue = {
    A: messages.A,
    B: messages.B,
    Remarks: messages.Remarks,
    Http: messages.Http,
    Callback: messages.Callback,
    Idempotency: messages.Idempotency,
  };
  const missing: string[] = [];
  let checked = 0;
  for (const [group, entries] of Object.entries(catalogue)) {
    for (const [name, value] of Object.entries(entries)) {
      checked++;
      const found =
        typeof value === 'function'
          ? templatePattern(value as (...args: string[]) => string, value.length).test(text)
          : text.includes(literal(value));
      if (!found) missing.push(`${group}.${name}`);
    }
  }
  return { checked, missing };
}

test('every text of the message catalogue appears in the document', () => {
  const { checked, missing } = missingMessages(JSON.stringify(document), (m) => JSON.stringify(m).slice(1, -1));
  expect(checked).toBeGreaterThan(40);
  expect(missing).toEqual([]);
});

test('every text of the message catalogue but the two success texts appears in docs/errors.md', () => {
  const page = readFileSync(path.resolve(__dirname, '../../docs/errors.md'), 'utf8');
  const successes = ['A.success', 'B.success'];
  expect(missingMessages(page, (m) => m).missing.filter((name) => !successes.includes(name))).toEqual([]);
});

test('every example answer of the document conforms to the document’s schema for it (ajv, JSON Schema 2020-12)', () => {
  const check = judge(document);
  let examples = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          for (const [name, example] of Object.entries(content.examples ?? {})) {
            examples++;
            expect({
              example: `${method} ${path} ${status} ${name}`,
              errors: check.answer(path, method, Number(status), mediaType, example.value),
            }).toEqual({
              example: `${method} ${path} ${status} ${name}`,
              errors: [],
            });
          }
        }
      }
    }
  }
  expect(examples).toBeGreaterThan(25);
});

test('the success example of every operation with a body conforms to its request schema (ajv)', () => {
  const check = judge(document);
  const withBody = [...OPERATIONS, ...ADMIN_OPERATIONS].filter((op) => op.body && op.examples.length > 0);
  expect(withBody.length).toBeGreaterThanOrEqual(11);
  for (const op of withBody) {
    expect({ op: op.id, errors: check.request(openApiPath(op.path), op.method, op.examples[0]!.body) }).toEqual({
      op: op.id,
      errors: [],
    });
  }
});

test('every operation lists its errors, with the documented status of each', () => {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const error of op['x-errors']) {
        expect({
          at: `${method} ${path}`,
          error: error.message ?? error.title,
          documented: Boolean(op.responses[String(error.status)]),
        }).toEqual({
          at: `${method} ${path}`,
          error: error.message ?? error.title,
          documented: true,
        });
      }
    }
  }
});

/** decisions.md: blank optional fields count as absent; service_code is ignored unless US or SG, locker_station unless locker_type A. */
function asTheReferenceDescribes(body: Record<string, unknown>): Record<string, unknown> {
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([, v]) => !blank(v)));
  if (!['US', 'SG'].includes(copy.recipient_country as string)) delete copy.service_code;
  if (copy.locker_type !== 'A') delete copy.locker_station;
  if (Array.isArray(copy.item))
    copy.item = copy.item.map((row) => Object.fromEntries(Object.entries(row as object).filter(([, v]) => !blank(v))));
  if (copy.locker_station && typeof copy.locker_station === 'object') {
    copy.locker_station = Object.fromEntries(Object.entries(copy.locker_station).filter(([, v]) => !blank(v)));
  }
  return copy;
}

test('the Order schema accepts every body create-order accepts (property, ajv)', () => {
  const check = judge(document);
  const ref = loadReferenceData();
  const [demo] = loadAccounts();
  let accepted = 0;
  fc.assert(
    fc.property(bodyArb, (body) => {
      if (!validateCreateOrder(body, { account: demo!, ref }).ok) return;
      accepted++;
      expect(check.schema('Order', asTheReferenceDescribes(body))).toEqual([]);
    }),
    { numRuns: 1500 },
  );
  expect(accepted).toBeGreaterThan(60);
});
