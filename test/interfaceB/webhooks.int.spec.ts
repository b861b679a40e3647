/**
 * Webhook endpoints over interface B on the embedded wiring. Create answers
 * the signing secret once (`whsec_` plus base64); list, get, update and delete; the cap per account;
 * another account's endpoint reads as missing; bad input is a B envelope error, never a 5xx.
 */
import { clientB, OTHER } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARCEL_WEBHOOK_MAX_ENDPOINTS: '3' });
});
afterAll(() => stack.destroy());

const create = (body: unknown, account?: typeof OTHER) => clientB(stack, account).post('webhook/create-endpoint', body);
const body = {
  url: 'https://hooks.example.com/parcel',
  event_types: ['ParcelRegistered', 'CarrierEventRecorded'],
  description: 'Order system',
};
const fail = (message: string) => ({ code: 1, message, data: [] });

describe('webhook endpoints over interface B', () => {
  test('create answers the endpoint and its secret, once; list and get never show the secret again', async () => {
    const created = await create(body);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      code: 0,
      message: 'success',
      data: { ...body, enabled: true, disabled_reason: '' },
    });
    const { endpoint_id: id, secret } = created.body.data;
    expect(id).toMatch(/^we_[0-9a-f]{24}$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const got = await clientB(stack).get('webhook/get-endpoint', { endpoint_id: id });
    expect(got.body.data).toEqual({ ...created.body.data, secret: undefined });
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const listed = await clientB(stack).get('webhook/list-endpoints');
    expect(listed.body.data.map((e: { endpoint_id: string }) => e.endpoint_id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    await clientB(stack).post('webhook/delete-endpoint', { endpoint_id: id });
  });

  test('update changes only what the body names; enabling again clears the disabled reason; delete removes it', async () => {
    const id = (await create(body)).body.data.endpoint_id;
    const b = clientB(stack);
    const disabled = await b.post('webhook/update-endpoint', {
      endpoint_id: id,
      enabled: false,
      event_types: ['ParcelCancelled'],
    });
    expect(disabled.body).toMatchObject({
      code: 0,
      data: {
        endpoint_id: id,
        enabled: false,
        event_types: ['ParcelCancelled'],
        url: body.url,
        description: body.description,
      },
    });
    const moved = await b.post('webhook/update-endpoint', {
      endpoint_id: id,
      url: 'http://hooks.example.org/x',
      enabled: true,
    });
    expect(moved.body.data).toMatchObject({
      url: 'http://hooks.example.org/x',
      enabled: true,
      event_types: ['ParcelCancelled'],
    });
    expect(await b.post('webhook/delete-endpoint', { endpoint_id: id })).toMatchObject({
      body: { code: 0, data: { endpoint_id: id } },
    });
    expect((await b.get('webhook/get-endpoint', { endpoint_id: id })).body).toEqual(fail('Webhook endpoint not found'));
    expect((await b.post('webhook/delete-endpoint', { endpoint_id: id })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
  });

  test('another account’s endpoint reads, changes, rotates, tests and deletes exactly as a missing one', async () => {
    const id = (await create(body)).body.data.endpoint_id;
    const other = clientB(stack, OTHER);
    expect((await other.get('webhook/get-endpoint', { endpoint_id: id })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
    expect((await other.post('webhook/update-endpoint', { endpoint_id: id, enabled: false })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
    // Rotating would hand the other account a secret that signs this account's webhooks.
    expect((await other.post('webhook/rotate-secret', { endpoint_id: id })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
    expect((await other.post('webhook/send-test-event', { endpoint_id: id })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
    expect((await other.post('webhook/delete-endpoint', { endpoint_id: id })).body).toEqual(
      fail('Webhook endpoint not found'),
    );
    expect(
      (await other.get('webhook/list-endpoints')).body.data.map((e: { endpoint_id: string }) => e.endpoint_id),
    ).not.toContain(id);
    expect((await clientB(stack).get('webhook/get-endpoint', { endpoint_id: id })).body.data.enabled).toBe(true);
    await clientB(stack).post('webhook/delete-endpoint', { endpoint_id: id });
  });

  test('the cap (PARCEL_WEBHOOK_MAX_ENDPOINTS) holds per account', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(body)).body.data.endpoint_id);
    expect((await create(body)).body).toEqual(fail('Maximum 3 webhook endpoints per account'));
    const theirs = await create(body, OTHER);
    expect(theirs.body.code).toBe(0);
    for (const endpoint_id of ids) await clientB(stack).post('webhook/delete-endpoint', { endpoint_id });
    await clientB(stack, OTHER).post('webhook/delete-endpoint', { endpoint_id: theirs.body.data.endpoint_id });
    expect((await create(body)).body.code).toBe(0);
  });

  test.each([
    [{ ...body, url: undefined }, 'url require'],
    [{ ...body, url: '  ' }, 'url require'],
    [{ ...body, url: 42 }, 'url invalid'],
    [{ ...body, url: 'ftp://hooks.example.com/' }, 'url invalid'],
    [{ ...body, url: 'file:///etc/passwd' }, 'url invalid'],
    [{ ...body, url: 'hooks.example.com/parcel' }, 'url invalid'],
    [{ ...body, url: 'https://user:pw@hooks.example.com/' }, 'url invalid'],
    [{ ...body, url: `https://hooks.example.com/${'x'.repeat(2048)}` }, 'url invalid'],
    [{ ...body, event_types: undefined }, 'event_types require'],
    [{ ...body, event_types: [] }, 'event_types require'],
    [{ ...body, event_types: 'ParcelRegistered' }, 'event_types invalid'],
    [{ ...body, event_types: ['CarrierRegistered'] }, 'event_types invalid'],
    [{ ...body, description: 7 }, 'description invalid'],
    [{ ...body, description: 'd'.repeat(257) }, 'description invalid'],
  ])('create refuses %j with "%s"', async (input, message) => {
    expect(await create(input)).toMatchObject({ status: 200, body: fail(message) });
  });

  test.each([
    'http://127.0.0.1/hook',
    'http://10.0.0.8/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://2130706433/hook',
    'http://100.64.0.1/hook',
  ])('a literal private, loopback or link-local address (%s) is refused at create and update', async (url) => {
    expect((await create({ ...body, url })).body).toEqual(fail('url refused'));
    const id = (await create(body)).body.data.endpoint_id;
    expect((await clientB(stack).post('webhook/update-endpoint', { endpoint_id: id, url })).body).toEqual(
      fail('url refused'),
    );
    await clientB(stack).post('webhook/delete-endpoint', { endpoint_id: id });
  });

  test('the answer stays `url refused`; the reference says what allows such a URL, for create and update alike', async () => {
    expect((await create({ ...body, url: 'http://127.0.0.1:8091/parcel' })).body).toEqual(fail('url refused'));
    const document = (await (await fetch(`${stack.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: { 'x-errors': { message: string; when: string }[] } }>;
    };
    for (const operation of ['create-endpoint', 'update-endpoint']) {
      const refused = document.paths[`/v1/openapi/webhook/${operation}`]!.post['x-errors'].find(
        (e) => e.message === 'url refused',
      );
      expect(refused?.when).toContain('`PARCEL_WEBHOOK_ALLOW_PRIVATE=on`');
    }
  });

  test.each([
    [{}, 'endpoint_id require'],
    [{ endpoint_id: 5 }, 'endpoint_id invalid'],
    [{ endpoint_id: 'x'.repeat(65) }, 'endpoint_id invalid'],
    [{ endpoint_id: 'we_1', enabled: 'no' }, 'enabled invalid'],
    [{ endpoint_id: 'we_1', url: 'gopher://x' }, 'url invalid'],
  ])('update refuses %j with "%s"', async (input, message) => {
    expect((await clientB(stack).post('webhook/update-endpoint', input)).body).toEqual(fail(message));
  });

  test('get without an id, and an unsigned request, answer the B envelope', async () => {
    expect((await clientB(stack).get('webhook/get-endpoint')).body).toEqual(fail('endpoint_id require'));
    const unsigned = await fetch(`${stack.url}/v1/openapi/webhook/list-endpoints`);
    expect(await unsigned.json()).toEqual(fail('x-auth-name: REQUIRED'));
  });
});

describe('private destinations allowed by configuration', () => {
  test('PARCEL_WEBHOOK_ALLOW_PRIVATE=on accepts a loopback receiver', async () => {
    const allowing = await startTestStack({ PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on' });
    try {
      expect(
        (await clientB(allowing).post('webhook/create-endpoint', { ...body, url: 'http://127.0.0.1:9/hook' })).body
          .code,
      ).toBe(0);
    } finally {
      await allowing.destroy();
    }
  });
});
