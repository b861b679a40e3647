/** decisions.md "Unexpected failure: HTTP 500 with the generic server-error message (A) or server error (B)". */
import type { Bus } from '@parcel-logistics/bus';
import type { ProjectionStore } from '@parcel-logistics/projections';
import { signature } from './auth/signature.ts';
import { FIXED_NOW, listeningGateway } from '../test/gateway.fixtures.ts';

const broken = () => Promise.reject(new Error('disk on fire at /secret/path.ts:12'));
const bus = {
  request: broken,
  handleRequests: broken,
  publish: broken,
  subscribe: broken,
  ping: broken,
  close: broken,
} as unknown as Bus;
const projections = {
  parcels: {
    get: broken,
    getForClient: broken,
    getManyForClient: broken,
    getPublicTracking: broken,
    getByReference: broken,
    save: broken,
    saveMany: broken,
  },
  tokens: {
    put: broken,
    findByHash: () =>
      Promise.resolve({ clientId: 'demo', tokenHash: 'x', issuedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER }),
  },
  ping: broken,
  close: broken,
} as unknown as ProjectionStore;

const gateway = listeningGateway({ bus, projections });
beforeAll(gateway.start);
afterAll(gateway.stop);
const url = gateway.url;

const seed = String(FIXED_NOW.getTime());
const signed = { 'x-auth-name': 'demo', 'x-auth-seed': seed, 'x-auth-token': signature('demo', 'demo-secret', seed) };

test('interface B: HTTP 500, code 1, "server error", no trace of the failure', async () => {
  const r = await fetch(`${url()}/v1/openapi/order/query-status?tracking_num=PX1`, { headers: signed });
  expect(r.status).toBe(500);
  const text = await r.text();
  expect(JSON.parse(text)).toEqual({ code: 1, message: 'server error', data: [] });
  expect(text).not.toContain('fire');
});

test('interface A: HTTP 500, Code 1, the generic server-error message', async () => {
  const r = await fetch(`${url()}/api/status/lookup`, {
    method: 'POST',
    headers: { authorization: 'Bearer t' },
    body: '{"TrackingNumber":["x"]}',
  });
  expect(r.status).toBe(500);
  expect(await r.json()).toEqual({
    Code: 1,
    Message: 'Error encountered, please contact support@parcel.example',
    Data: [],
  });
});

test('decisions.md "/readyz: 503 when its bus and stores are not reachable"; /healthz stays 200', async () => {
  expect((await fetch(`${url()}/readyz`)).status).toBe(503);
  expect((await fetch(`${url()}/healthz`)).status).toBe(200);
});
