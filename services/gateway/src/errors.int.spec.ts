/** decisions.md "Unexpected failure: HTTP 500 with the generic server-error message (A) or server error (B)". */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Bus } from '@parcel/bus';
import type { ProjectionStore } from '@parcel/projections';
import { loadAccounts, loadReferenceData } from '@parcel/reference-data';
import { createGatewayApp } from './app.ts';
import { signature } from './auth/signature.ts';

const broken = () => Promise.reject(new Error('disk on fire at /secret/path.ts:12'));
const bus = { request: broken, handleRequests: broken, publish: broken, subscribe: broken, ping: broken, close: broken } as unknown as Bus;
const projections = {
  parcels: { get: broken, getForClient: broken, getManyForClient: broken, getByReference: broken, save: broken },
  tokens: { put: broken, findByHash: () => Promise.resolve({ clientId: 'demo', tokenHash: 'x', issuedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER }) },
  ping: broken,
  close: broken,
} as unknown as ProjectionStore;

const now = new Date('2026-11-22T06:05:09Z');
const app = createGatewayApp({
  bus,
  projections,
  accounts: loadAccounts(),
  ref: loadReferenceData(),
  clock: { now: () => now },
  log: pino({ level: 'silent' }),
  config: {
    tokenTtlS: 60,
    commandTimeoutMs: 1000,
    genericErrorA: 'Error encountered, please contact support@parcel.example',
    rateLimitPerSecond: 0,
    rateLimitBurst: 1,
    batchCreate: { enabled: false, max: 50 },
  },
});
let server: Server;
beforeAll(() => new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve()))));
afterAll(() => new Promise((resolve) => server.close(resolve)));
const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const seed = String(now.getTime());
const signed = { 'x-auth-name': 'demo', 'x-auth-seed': seed, 'x-auth-token': signature('demo', 'demo-secret', seed) };

test('interface B: HTTP 500, code 1, "server error", no trace of the failure', async () => {
  const r = await fetch(`${url()}/v1/openapi/order/query-status?tracking_num=PX1`, { headers: signed });
  expect(r.status).toBe(500);
  const text = await r.text();
  expect(JSON.parse(text)).toEqual({ code: 1, message: 'server error', data: [] });
  expect(text).not.toContain('fire');
});

test('interface A: HTTP 500, Code 1, the generic server-error message', async () => {
  const r = await fetch(`${url()}/api/status/lookup`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: '{"TrackingNumber":["x"]}' });
  expect(r.status).toBe(500);
  expect(await r.json()).toEqual({ Code: 1, Message: 'Error encountered, please contact support@parcel.example', Data: [] });
});

test('decisions.md "/readyz: 503 when its bus and stores are not reachable"; /healthz stays 200', async () => {
  expect((await fetch(`${url()}/readyz`)).status).toBe(503);
  expect((await fetch(`${url()}/healthz`)).status).toBe(200);
});
