/**
 * The API reference: every example of the OpenAPI document is sent to the embedded
 * server, and the answer must conform to the document's schema for its status (ajv, JSON Schema
 * 2020-12). A success example's answer has its documented code and message; an error example's
 * answer is the documented one exactly. The document's sample numbers are replaced by real ones:
 * the create-order example creates the parcel the others ask about.
 */
import { createHmac } from 'node:crypto';
import {
  IMPORT_SAMPLE,
  MANIFEST_SAMPLE,
  OPERATIONS,
  openApiPath,
  SAMPLE,
  WEBHOOK_SAMPLE,
} from '@parcel-logistics/contracts/api';
import type { Example, Operation } from '@parcel-logistics/contracts/api';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { raw, signedHeaders } from '../support/client.ts';
import type { Reply } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { judge } from './support.ts';
import type { Judge, OpenApi } from './support.ts';

let stack: TestStack;
let check: Judge;
beforeAll(async () => {
  stack = await startTestStack({
    PARCEL_BATCH_CREATE: 'on',
    PARCEL_RATE_LIMIT_RPS: '1000',
    PARCEL_RATE_LIMIT_BURST: '2000',
  });
  check = judge((await raw(`${stack.url}/openapi.json`, {})).body as OpenApi);
});
afterAll(() => stack.destroy());

const run = Date.now().toString(36);
/** Sample values of the document → the real ones of this run. */
const real = new Map<string, string>();

/** The example with every sample replaced: references get this run's prefix, numbers the parcel's real ones. */
function substitute(value: unknown): unknown {
  if (typeof value === 'string') {
    let text = value.replace(/ORDER-(\d+)/g, `ORDER-${run}-$1`);
    for (const [sample, actual] of real) text = text.replaceAll(sample, actual);
    return text;
  }
  if (Array.isArray(value)) return value.map(substitute);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  return value;
}

const LMX_SECRET = 'lmx-sandbox-secret';

async function send(op: Operation, example: Example, bearer: string | undefined): Promise<Reply> {
  const params = substitute(example.params ?? {}) as Record<string, string>;
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]!));
  const query = example.query ? `?${new URLSearchParams(substitute(example.query) as Record<string, string>)}` : '';
  const csv = op.consumes === 'text/csv';
  const body =
    example.body === undefined
      ? undefined
      : csv
        ? (substitute(example.body) as string)
        : JSON.stringify(substitute(example.body));
  const headers: Record<string, string> =
    body === undefined ? {} : { 'content-type': csv ? 'text/csv' : 'application/json' };
  if (op.security === 'signed') Object.assign(headers, signedHeaders(stack));
  if (op.security === 'bearer') headers.authorization = `Bearer ${bearer}`;
  if (op.security === 'carrier')
    headers['x-carrier-signature'] = `sha256=${createHmac('sha256', LMX_SECRET)
      .update(body ?? '')
      .digest('hex')}`;
  return raw(`${stack.url}${path}${query}`, {
    method: op.method.toUpperCase(),
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** The order the examples run in: the token and the parcel first, the cancellation last. */
const ORDER = [
  'issueToken',
  'createOrder',
  'queryStatus',
  'queryMultiStatus',
  'lookUpStatus',
  'lookUpTrackingNumber',
  'getBarcode',
  'getStations',
  'getShippingLabel',
  'getShippingLabelHtml',
  'getShippingLabelZpl',
  'createLabel',
  'getShippingLabels',
  'createOrders',
  'importOrders',
  'getImport',
  'receiveCarrierEvent',
  'cancelOrders',
  // After every call that needs the sample parcel's personal data (its labels).
  'erasePersonalData',
  // With a parcel of its own registered first: the sample parcel is cancelled by now.
  'createManifest',
  'getManifest',
  'listManifests',
  'createWebhookEndpoint',
  'listWebhookEndpoints',
  'getWebhookEndpoint',
  'updateWebhookEndpoint',
  'rotateWebhookSecret',
  'sendWebhookTestEvent',
  'listWebhookMessages',
  'listWebhookAttempts',
  'redeliverWebhookMessage',
  'replayWebhookEndpoint',
  'getWebhookReplay',
  'deleteWebhookEndpoint',
  'alive',
  'ready',
  'metrics',
  'openApiDocument',
  'apiReference',
  'apiReferenceAsset',
  'trackingSearch',
  'trackingJson',
  'trackingPage',
];

test('the run order names every operation once', () => {
  expect([...ORDER].sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
});

test('every example of every operation, sent to the embedded server, is answered as documented', async () => {
  let bearer: string | undefined;
  let sent = 0;
  for (const id of ORDER) {
    const op = OPERATIONS.find((o) => o.id === id)!;
    for (const [i, example] of op.examples.entries()) {
      if (id === 'createManifest' && i === 0) await registeredParcel(stack);
      const reply = await send(op, example, bearer);
      sent++;
      const at = `${op.id}/${example.name}`;
      const status = example.status ?? 200;
      expect({ at, status: reply.status }).toEqual({ at, status });
      const mediaType = (reply.headers.get('content-type') ?? '').split(';')[0]!;
      expect({
        at,
        errors: check.answer(openApiPath(op.path), op.method, reply.status, mediaType, reply.body),
      }).toEqual({ at, errors: [] });

      const documented = substitute(example.response) as Record<string, unknown>;
      if (i > 0) expect({ at, body: reply.body }).toEqual({ at, body: documented });
      else if (typeof documented === 'object' && 'code' in documented)
        expect([reply.body.code, reply.body.message]).toEqual([documented.code, documented.message]);
      else if (typeof documented === 'object' && 'Code' in documented)
        expect([reply.body.Code, reply.body.Message]).toEqual([documented.Code, documented.Message]);

      if (id === 'importOrders' && i === 0) {
        real.set(IMPORT_SAMPLE.importId, reply.body.data.import_id);
        // get-import's example is of the import finished.
        await eventually(async () => {
          const again = await send(
            OPERATIONS.find((o) => o.id === 'getImport')!,
            OPERATIONS.find((o) => o.id === 'getImport')!.examples[0]!,
            bearer,
          );
          expect(again.body.data.state).toBe('finished');
        });
      }
      if (id === 'createWebhookEndpoint' && i === 0) real.set(WEBHOOK_SAMPLE.endpointId, reply.body.data.endpoint_id);
      if (id === 'sendWebhookTestEvent' && i === 0) real.set(WEBHOOK_SAMPLE.eventId, reply.body.data.event_id);
      if (id === 'replayWebhookEndpoint' && i === 0) real.set(WEBHOOK_SAMPLE.replayId, reply.body.data.replay_id);
      if (id === 'createManifest' && i === 0) real.set(MANIFEST_SAMPLE.manifestId, reply.body.data.manifest_id);
      if (id === 'issueToken' && i === 0) bearer = reply.body.Data.AccessToken;
      if (id === 'createOrder' && i === 0) {
        real.set(SAMPLE.trackingNumber, reply.body.data.wmg_tracking_num);
        // Registration with the LMX sandbox follows the order; the examples show the parcel registered.
        await eventually(async () => {
          const status = await raw(
            `${stack.url}/v1/openapi/order/query-status?tracking_num=${reply.body.data.wmg_tracking_num}`,
            { headers: signedHeaders(stack) },
          );
          expect(status.body.data.partner_tracking_no).not.toBe('');
          real.set(SAMPLE.partnerTrackingNo, status.body.data.partner_tracking_no);
        });
      }
    }
  }
  expect(sent).toBeGreaterThanOrEqual(35);
});

test('answers to authenticated requests carry RateLimit-Limit, -Remaining and -Reset; the others do not', async () => {
  const b = await raw(`${stack.url}/v1/openapi/station/get-stations?postcode=238858`, {
    headers: signedHeaders(stack),
  });
  expect(b.headers.get('ratelimit-limit')).toBe('2000');
  expect(Number(b.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  expect(Number(b.headers.get('ratelimit-remaining'))).toBeLessThan(2000);
  expect(Number(b.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
  const failedAuth = await raw(`${stack.url}/v1/openapi/station/get-stations?postcode=238858`, {});
  expect(failedAuth.body.message).toBe('x-auth-name: REQUIRED');
  expect(failedAuth.headers.get('ratelimit-limit')).toBeNull();
  expect((await raw(`${stack.url}/healthz`, {})).headers.get('ratelimit-limit')).toBeNull();
});
