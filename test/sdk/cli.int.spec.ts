/**
 * The client SDK, its `parcelctl` command line, run as a user runs it (a child process, the
 * gateway and credentials from the environment) against the embedded stack: JSON on stdout,
 * failures on stderr, and exit codes 0 (success), 1 (business error), 2 (usage error) and 3
 * (server or network error).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signature } from '@parcel-logistics/client';
import { registeredParcel } from '../support/carriers.ts';
import { csvOf, orderBody } from '../support/orders.ts';
import { childPath, freePort, ROOT } from '../support/npmStart.ts';
import type { TestStack } from '../support/stack.ts';
import { startRealTimeStack, businessError } from './support.ts';

const CLI = 'packages/client/src/cli.ts';
// Each command is a fresh Node process (about half a second each on a busy machine); a test runs up to eight.
jest.setTimeout(30_000);

let stack: TestStack;
let dir: string;
beforeAll(async () => {
  stack = await startRealTimeStack();
  dir = mkdtempSync(path.join(tmpdir(), 'parcel-cli-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.destroy();
});

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** stdout as JSON. */
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Runs a command to its end (asynchronously: the stack serving it lives in this process). */
function run(
  command: string,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: childPath(),
    PARCEL_URL: stack.url,
    PARCEL_API_NAME: 'demo',
    PARCEL_API_KEY: 'demo-secret',
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out);
      resolve({
        code,
        stdout,
        stderr: Buffer.concat(err).toString('utf8'),
        json: () => JSON.parse(stdout.toString('utf8')),
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

const parcel = (args: string[], options?: Parameters<typeof run>[2]) => run(process.execPath, [CLI, ...args], options);

/** The one JSON line a failure writes to stderr. */
const errorLine = (r: Run) => {
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(r.stderr).error;
};

async function createdParcel(): Promise<{ ref: string; tn: string }> {
  const body = orderBody();
  const r = await parcel(['create-order'], { input: JSON.stringify(body) });
  expect(r.code).toBe(0);
  return { ref: body.custom_tracking_num as string, tn: r.json().wmg_tracking_num };
}

describe('exit 0: success, the data as JSON on stdout', () => {
  test('create-order from standard input prints the created order', async () => {
    const body = orderBody();
    const r = await parcel(['create-order', '-'], { input: JSON.stringify(body) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      custom_tracking_num: body.custom_tracking_num,
      wmg_tracking_num: expect.stringMatching(/^PX[0-9A-Z]{16}$/),
      status: '',
      error: [],
    });
  });

  test('create-order from a file', async () => {
    const body = orderBody();
    const file = path.join(dir, 'order.json');
    writeFileSync(file, JSON.stringify(body));
    const r = await parcel(['create-order', file]);
    expect(r.code).toBe(0);
    expect(r.json().custom_tracking_num).toBe(body.custom_tracking_num);
  });

  test('import --wait shows the progress on stderr and prints the finished import, its rejected row with create-order’s message', async () => {
    const bad = orderBody({ recipient_phone: 'abc' });
    const file = path.join(dir, 'orders.csv');
    writeFileSync(file, csvOf([orderBody(), bad, orderBody()]));
    const r = await parcel(['import', file, '--wait']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      state: 'finished',
      rows: 3,
      accepted: 2,
      rejected: 1,
      created: 2,
      errors: [{ row: 2, custom_tracking_num: bad.custom_tracking_num, message: 'recipient_phone invalid' }],
    });
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^import [0-9a-f-]{36}: finished, 2 of 2 created, 1 of 3 rows rejected$/);
  });

  test('manifest LMX --out --csv writes the PDF and the CSV and prints where; manifest get and list read it again', async () => {
    const { tn } = await registeredParcel(stack);
    const pdf = path.join(dir, 'manifest.pdf');
    const csv = path.join(dir, 'manifest.csv');
    const made = await parcel(['manifest', 'LMX', '--out', pdf, '--csv', csv]);
    expect(made.code).toBe(0);
    const printed = made.json();
    expect(printed).toMatchObject({ carrier: 'LMX', pdf: { file: pdf }, csv: { file: csv } });
    expect(printed.tracking_numbers).toContain(tn);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readFileSync(csv, 'utf8')).toContain(`${tn},`);
    const got = await parcel(['manifest', 'get', printed.manifest_id]);
    expect(got.json()).toMatchObject({ manifest_id: printed.manifest_id, tracking_numbers: printed.tracking_numbers });
    const listed = await parcel(['manifest', 'list', '--limit', '1']);
    expect(listed.json().map((m: { manifest_id: string }) => m.manifest_id)).toEqual([printed.manifest_id]);
  });

  test('status of one number prints its record; of several, {success, errors}', async () => {
    const { tn } = await createdParcel();
    const one = await parcel(['status', tn]);
    expect(one.code).toBe(0);
    expect(one.json()).toMatchObject({ tracking_number: tn, last_status: 'DR_DR' });
    const many = await parcel(['status', tn, 'PXB3X6H0NEVAZ2J9R9']);
    expect(many.code).toBe(0);
    expect(many.json().success.map((r: { tracking_number: string }) => r.tracking_number)).toEqual([tn]);
    expect(many.json().errors).toEqual([{ tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' }]);
  });

  test('label --format pdf --out writes the PDF and prints where; zpl without --out goes to stdout', async () => {
    const { tn } = await createdParcel();
    const file = path.join(dir, `${tn}.pdf`);
    const r = await parcel(['label', tn, '--format', 'pdf', '--out', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const pdf = readFileSync(file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.json()).toEqual({ tracking_num: tn, format: 'pdf', file, bytes: pdf.length });
    const zpl = await parcel(['label', tn, '--format', 'zpl']);
    expect(zpl.code).toBe(0);
    expect(zpl.stdout.toString('utf8')).toMatch(new RegExp(`^\\^XA[\\s\\S]*${tn}[\\s\\S]*\\^XZ\\s*$`));
  });

  test('label --format cn23 (interface A) writes the customs declaration', async () => {
    const { tn } = await createdParcel();
    const file = path.join(dir, `${tn}-cn23.pdf`);
    const r = await parcel([
      'label',
      tn,
      '--format',
      'cn23',
      '--origin',
      'SG',
      '--destination',
      'SG',
      '--direction',
      'vertical',
      '--out',
      file,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  test('labels --layout a4-4up --out writes one PDF of many labels and prints {labels, errors}; zpl without --out goes to stdout', async () => {
    const [a, b] = [(await createdParcel()).tn, (await createdParcel()).tn];
    const unknown = 'PXB3X6H0NEVAZ2J9R9';
    const file = path.join(dir, 'labels.pdf');
    const r = await parcel(['labels', a, unknown, b, '--layout', 'a4-4up', '--out', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const pdf = readFileSync(file);
    expect(r.json()).toEqual({
      labels: [a, b],
      errors: [{ tracking_number: unknown, remarks: 'Order Not Found!' }],
      format: 'pdf',
      file,
      bytes: pdf.length,
    });
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/^Pages:\s+1$/m);
    const zpl = await parcel(['labels', a, b, '--format', 'zpl']);
    expect(zpl.code).toBe(0);
    expect(zpl.stdout.toString('utf8').match(/\^XA[\s\S]*?\^XZ/g)).toHaveLength(2);
    expect(JSON.parse(zpl.stderr)).toEqual({ labels: [a, b], errors: [] });
  });

  test('cancel prints {success, errors}', async () => {
    const { tn } = await createdParcel();
    await stack.caughtUp();
    const r = await parcel(['cancel', tn]);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ success: [tn], errors: [] });
  });

  test('erase prints {success, errors}; the parcel is erased (its label refused), an unknown number is No Record(s)', async () => {
    const { tn } = await createdParcel();
    await stack.caughtUp();
    const r = await parcel(['erase', tn, 'PXB3X6H0NEVAZ2J9R9']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      success: [tn],
      errors: [{ tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' }],
    });
    const label = await parcel(['label', tn]);
    expect(label.code).toBe(1);
    expect(label.stderr).toContain('Personal data erased');
  });

  test('webhook create prints the secret once; list, disable, rotate, test and delete', async () => {
    const created = await parcel([
      'webhook',
      'create',
      'https://hooks.example.com/cli',
      'ParcelRegistered',
      'ParcelCancelled',
      '--description',
      'from the CLI',
    ]);
    expect(created.code).toBe(0);
    const endpoint = created.json();
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/cli',
      event_types: ['ParcelRegistered', 'ParcelCancelled'],
      description: 'from the CLI',
      enabled: true,
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await parcel(['webhook', 'list']);
    expect(listed.json().map((e: { endpoint_id: string }) => e.endpoint_id)).toContain(endpoint.endpoint_id);
    expect(listed.stdout.toString()).not.toContain('whsec_');
    expect((await parcel(['webhook', 'disable', endpoint.endpoint_id])).json().enabled).toBe(false);
    expect((await parcel(['webhook', 'rotate', endpoint.endpoint_id])).json().secret).toMatch(/^whsec_/);
    expect((await parcel(['webhook', 'test', endpoint.endpoint_id])).json().endpoint_id).toBe(endpoint.endpoint_id);
    expect((await parcel(['webhook', 'delete', endpoint.endpoint_id])).code).toBe(0);
    const gone = await parcel(['webhook', 'get', endpoint.endpoint_id]);
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stderr).error).toMatchObject({ kind: 'business', message: 'Webhook endpoint not found' });
    expect((await parcel(['webhook', 'create', 'https://hooks.example.com/cli', 'CarrierRegistered'])).code).toBe(1);
    expect((await parcel(['webhook', 'frobnicate'])).code).toBe(2);
    expect((await parcel(['webhook', 'get'])).code).toBe(2);
  });

  test('webhook messages, attempts, redeliver, replay and replay-status: the delivery log and replay', async () => {
    const id = (await parcel(['webhook', 'create', 'https://hooks.example.com/cli-log', 'ParcelRegistered'])).json()
      .endpoint_id as string;
    const eventId = (await parcel(['webhook', 'test', id])).json().event_id as string;
    const messages = await parcel(['webhook', 'messages', id, '--limit', '1']);
    expect(messages.code).toBe(0);
    expect(messages.json().messages.map((m: { event_id: string }) => m.event_id)).toEqual([eventId]);
    expect((await parcel(['webhook', 'attempts', id, '--event', eventId])).code).toBe(0);
    expect((await parcel(['webhook', 'redeliver', id, eventId])).json()).toMatchObject({
      endpoint_id: id,
      event_id: eventId,
    });
    const replay = await parcel(['webhook', 'replay', id, new Date().toISOString()]);
    expect(replay.json()).toMatchObject({ endpoint_id: id, status: 'requested' });
    expect((await parcel(['webhook', 'replay-status', id, replay.json().replay_id])).json().replay_id).toBe(
      replay.json().replay_id,
    );
    const unknown = await parcel(['webhook', 'redeliver', id, 'no-such-event']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error).toMatchObject({ kind: 'business', message: 'Webhook message not found' });
    expect((await parcel(['webhook', 'redeliver', id])).code).toBe(2);
    expect((await parcel(['webhook', 'messages', id, '--limit', 'ten'])).code).toBe(2);
    await parcel(['webhook', 'delete', id]);
  });

  test('stations and barcode', async () => {
    const stations = await parcel(['stations', '637586']);
    expect(stations.code).toBe(0);
    expect(stations.json()[0]).toMatchObject({ Zipcode: '637586', Station_Code: 'SGL0150', Distance: 0 });
    const { ref, tn } = await createdParcel();
    const barcode = await parcel(['barcode', ref]);
    expect(barcode.code).toBe(0);
    expect(barcode.json()).toEqual({ barcode: tn });
  });

  test('sign prints the three headers as "name: value" lines, and the server accepts them', async () => {
    const r = await parcel(['sign', '--name', 'other', '--key', 'other-secret']);
    expect(r.code).toBe(0);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    const headers = Object.fromEntries(lines.map((line) => line.split(': ') as [string, string]));
    expect(Object.keys(headers)).toEqual(['x-auth-name', 'x-auth-seed', 'x-auth-token']);
    expect(headers['x-auth-name']).toBe('other');
    expect(headers['x-auth-seed']).toMatch(/^\d{13}$/);
    expect(headers['x-auth-token']).toBe(signature('other', 'other-secret', headers['x-auth-seed']!));
    const answer = await fetch(`${stack.url}/v1/openapi/station/get-stations?postcode=637586`, { headers });
    expect(((await answer.json()) as { code: number }).code).toBe(0);
  });

  test("--help lists the commands and the exit codes; a command's --help its own usage", async () => {
    const all = await parcel(['--help']);
    expect(all.code).toBe(0);
    const text = all.stdout.toString('utf8');
    for (const command of [
      'create-order',
      'status',
      'label',
      'cancel',
      'erase',
      'stations',
      'barcode',
      'webhook',
      'sign',
    ])
      expect(text).toContain(`  ${command}`);
    expect(text).toMatch(
      /Exit codes:\n {2}0 +success\n {2}1 +business error[^\n]*\n {2}2 +usage error[^\n]*\n {2}3 +server or network error/,
    );
    const label = await parcel(['label', '--help']);
    expect(label.code).toBe(0);
    expect(label.stdout.toString('utf8')).toContain(
      'Usage: parcelctl [options] label <tracking> [--format pdf|html|zpl|cn23] [--out <file>]',
    );
    expect(label.stdout.toString('utf8')).toContain('--origin <country>');
    // erase changes something: it sends an Idempotency-Key (one may be given) and is retried as cancel is.
    expect(text).toMatch(/so are create-order, import, cancel, erase and\s+label cn23, which send an Idempotency-Key/);
    const erase = await parcel(['erase', '--help']);
    expect(erase.code).toBe(0);
    expect(erase.stdout.toString('utf8')).toContain('Usage: parcelctl [options] erase <tracking...>');
    expect(erase.stdout.toString('utf8')).toContain('--idempotency-key <key>');
  });

  test('npm run -s parcel -- <args> runs it from the repository', async () => {
    const r = await run('npm', ['run', '-s', 'parcelctl', '--', 'stations', '637586']);
    expect(r.code).toBe(0);
    expect(r.json()[0].Station_Code).toBe('SGL0150');
  }, 60_000);
});

describe('exit 1: a business error, as one JSON line on stderr', () => {
  test('create-order with recipient_country ZZ', async () => {
    const r = await parcel(['create-order'], { input: JSON.stringify(orderBody({ recipient_country: 'ZZ' })) });
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(errorLine(r)).toEqual(businessError('recipient_country(ZZ) not allow'));
  });

  test('status of a number the account does not have', async () => {
    const r = await parcel(['status', 'PXB3X6H0NEVAZ2J9R9']);
    expect(r.code).toBe(1);
    expect(errorLine(r)).toMatchObject({
      kind: 'business',
      message: 'fail',
      data: { tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' },
    });
  });

  test('labels of numbers none of which can be labelled: no document, the reasons on stderr', async () => {
    const file = path.join(dir, 'none.pdf');
    const r = await parcel(['labels', 'PXB3X6H0NEVAZ2J9R9', '--out', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(errorLine(r)).toEqual({
      kind: 'business',
      message: 'no number could be labelled',
      data: { labels: [], errors: [{ tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'Order Not Found!' }] },
    });
    expect(existsSync(file)).toBe(false);
  });
});

describe('exit 2: a usage error, explained on stderr, nothing sent', () => {
  test.each([
    ['an unknown command', ['track', 'PX1'], {}, 'unknown command "track"'],
    ['an unknown option', ['stations', '637586', '--verbose'], {}, "Unknown option '--verbose'"],
    ['an option of another command', ['stations', '637586', '--out', 'x'], {}, 'stations takes no --out'],
    ['a missing argument', ['status'], {}, 'give at least one tracking number'],
    [
      'no credentials',
      ['stations', '637586'],
      { PARCEL_API_NAME: undefined, PARCEL_API_KEY: undefined },
      'no credentials',
    ],
    [
      'cn23 without the countries',
      ['label', 'PX1', '--format', 'cn23'],
      {},
      '--format cn23 needs --origin and --destination',
    ],
    ['an unknown label format', ['label', 'PX1', '--format', 'png'], {}, '--format is one of pdf, html, zpl, cn23'],
    [
      'labels on A4 in ZPL',
      ['labels', 'PX1', '--format', 'zpl', '--layout', 'a4-4up'],
      {},
      '--layout a4-4up goes with --format pdf only',
    ],
    [
      'a file that does not exist',
      ['create-order', '/nonexistent/order.json'],
      {},
      'cannot read /nonexistent/order.json',
    ],
  ])('%s', async (_what, args, env, message) => {
    const r = await parcel(args, { env });
    expect(r.code).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toContain(`parcelctl: ${message}`);
    expect(r.stderr).toMatch(/Run "parcelctl (\S+ )?--help" for usage\./);
  });

  test('an order that is not JSON', async () => {
    const r = await parcel(['create-order'], { input: '{"custom_tracking_num": ' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('parcelctl: standard input is not JSON');
  });
});

describe('exit 3: a server or network error', () => {
  test('no gateway at --url: a network error after the retries', async () => {
    const port = await freePort();
    const r = await parcel(['stations', '637586', '--url', `http://127.0.0.1:${port}`]);
    expect(r.code).toBe(3);
    expect(errorLine(r)).toMatchObject({
      kind: 'network',
      code: null,
      status: null,
      attempts: 3,
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  test('a gateway path that does not exist: HTTP 404 "Api not found"', async () => {
    const r = await parcel(['stations', '637586', '--url', `${stack.url}/nowhere`]);
    expect(r.code).toBe(3);
    expect(errorLine(r)).toEqual({
      kind: 'http',
      code: 1,
      message: 'Api not found',
      status: 404,
      data: [],
      attempts: 1,
    });
  });
});
