/**
 * The operator API's part of the reference: every example of its operations is sent to the
 * operator API of the embedded stack (its own port), in an order that makes each one's premise true
 * (the account made, then changed, its key rotated, the old key revoked), and the answer must
 * conform to the document's schema for its status and media type (ajv, JSON Schema 2020-12). An
 * error example's problem document is the documented one exactly. The sample key ids are replaced
 * by the real ones as they are issued.
 */
import { ADMIN_OPERATIONS, ADMIN_SAMPLE, openApiPath } from '@parcel-logistics/contracts/api';
import type { AdminExample, AdminOperation } from '@parcel-logistics/contracts/api';
import { ADMIN_ENV, ADMIN_TOKEN } from '../accounts/support.ts';
import { raw } from '../support/client.ts';
import type { Reply } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { judge } from './support.ts';
import type { Judge, OpenApi } from './support.ts';

let stack: TestStack;
let check: Judge;
beforeAll(async () => {
  stack = await startTestStack(ADMIN_ENV);
  check = judge((await raw(`${stack.url}/openapi.json`, {})).body as OpenApi);
});
afterAll(() => stack.destroy());

/** Sample values of the document → the real ones of this run. */
const real = new Map<string, string>();
const substitute = (text: string) => [...real].reduce((t, [sample, actual]) => t.replaceAll(sample, actual), text);

function send(op: AdminOperation, example: AdminExample, token = ADMIN_TOKEN): Promise<Reply> {
  const params = example.params ?? {};
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(substitute(params[name]!)));
  const query = example.query ? `?${new URLSearchParams(example.query)}` : '';
  const body = example.body === undefined ? undefined : JSON.stringify(example.body);
  return raw(`${stack.adminUrl}${path}${query}`, {
    method: op.method.toUpperCase(),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
}

/** Made, read, changed, a key issued and the old one revoked, the log read last. */
const ORDER = [
  'createAccount',
  'listAccounts',
  'getAccount',
  'updateAccount',
  'disableAccount',
  'enableAccount',
  'issueKey',
  'listKeys',
  'revokeKey',
  'audit',
];

test('the run order names every operator operation once', () => {
  expect([...ORDER].sort()).toEqual(ADMIN_OPERATIONS.map((op) => op.id).sort());
});

test('every example of the operator API, sent to its own port, is answered as documented', async () => {
  expect(stack.adminUrl).toBeDefined();
  let sent = 0;
  for (const id of ORDER) {
    const op = ADMIN_OPERATIONS.find((o) => o.id === id)!;
    for (const [i, example] of op.examples.entries()) {
      const reply = await send(op, example);
      sent++;
      const at = `${op.id}/${example.name}`;
      expect({ at, status: reply.status }).toEqual({ at, status: example.status });
      if (reply.status === 204) {
        expect({ at, body: reply.body }).toEqual({ at, body: '' });
        continue;
      }
      const mediaType = (reply.headers.get('content-type') ?? '').split(';')[0]!;
      expect({ at, mediaType }).toEqual({
        at,
        mediaType: example.status < 300 ? 'application/json' : 'application/problem+json',
      });
      expect({
        at,
        errors: check.answer(openApiPath(op.path), op.method, reply.status, mediaType, reply.body),
      }).toEqual({ at, errors: [] });
      if (i > 0) expect({ at, body: reply.body }).toEqual({ at, body: example.response });

      if (id === 'createAccount' && i === 0) {
        real.set(ADMIN_SAMPLE.keyId, reply.body.key.keyId);
        expect(reply.headers.get('location')).toBe(`/admin/v1/accounts/${ADMIN_SAMPLE.apiName}`);
      }
      if (id === 'issueKey' && i === 0) real.set(ADMIN_SAMPLE.secondKeyId, reply.body.keyId);
    }
  }
  expect(sent).toBeGreaterThanOrEqual(15);
});

test('the answers every operator operation documents besides its own: 401 without the token, as a problem document', async () => {
  for (const op of ADMIN_OPERATIONS) {
    const reply = await send(op, op.examples[0]!, 'not-the-token-' + 'x'.repeat(32));
    expect({ op: op.id, status: reply.status }).toEqual({ op: op.id, status: 401 });
    expect(check.answer(openApiPath(op.path), op.method, 401, 'application/problem+json', reply.body)).toEqual([]);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="parcel-admin"');
  }
});
