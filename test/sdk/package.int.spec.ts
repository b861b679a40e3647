/**
 * The client SDK, publishable: `pnpm pack` builds @parcel-logistics/client into a tarball of compiled
 * JS and .d.ts; npm installs it offline into a fresh project (it has no dependencies), where a
 * plain .mjs script calls the embedded stack without TypeScript, the installed `parcelctl` bin
 * runs, and the declarations type-check a consumer's code.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { orderBody } from '../support/orders.ts';
import { childPath, ROOT } from '../support/npmStart.ts';
import type { TestStack } from '../support/stack.ts';
import { startRealTimeStack } from './support.ts';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, PATH: childPath(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function succeed(command: string, args: string[], cwd: string, env?: Record<string, string>): Promise<string> {
  const ran = await run(command, args, cwd, env);
  if (ran.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${ran.code}:\n${ran.stdout}\n${ran.stderr}`);
  return ran.stdout;
}

let stack: TestStack;
let dir: string;
let tarball: string;
let project: string;
beforeAll(async () => {
  stack = await startRealTimeStack();
  dir = mkdtempSync(path.join(tmpdir(), 'parcel-pack-'));
  await succeed('pnpm', ['pack', '--pack-destination', dir], path.join(ROOT, 'packages/client'));
  tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  project = path.join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await succeed('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', path.join(dir, 'npm-cache'), tarball], project);
}, 180_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.destroy();
});

test('the tarball holds the compiled package and its README, not the TypeScript sources', async () => {
  const files = (await succeed('tar', ['-tzf', tarball], dir)).trim().split('\n').sort();
  expect(files).toEqual(expect.arrayContaining(['package/README.md', 'package/package.json', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/cli.js']));
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
});

test('the installed manifest points to dist/ and names no dependency', () => {
  const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules/@parcel-logistics/client/package.json'), 'utf8'));
  expect(manifest).toMatchObject({
    name: '@parcel-logistics/client',
    type: 'module',
    engines: { node: '>=18' },
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    bin: { parcelctl: './dist/cli.js' },
  });
  expect(manifest.dependencies).toBeUndefined();
});

test('a plain .mjs script imports @parcel-logistics/client and calls the server through both interfaces', async () => {
  const reference = `PACKED-${Date.now().toString(36)}`;
  const script = `
import { InterfaceAClient, InterfaceBClient } from '@parcel-logistics/client';
const options = { baseUrl: process.env.PARCEL_URL, apiName: 'demo', apiKey: 'demo-secret' };
const order = ${JSON.stringify(orderBody({ custom_tracking_num: reference }))};
const b = new InterfaceBClient(options);
const created = await b.createOrder(order);
const stations = await b.getStations('637586');
const refused = await b.createOrder({ ...order, custom_tracking_num: order.custom_tracking_num + 'Z', recipient_country: 'ZZ' });
const found = await new InterfaceAClient(options).lookUpTrackingNumber(order.custom_tracking_num);
console.log(JSON.stringify({
  created: created.ok && created.data.wmg_tracking_num,
  station: stations.ok && stations.data[0].Station_Code,
  refused: !refused.ok && refused.error.message,
  found: found.ok && found.data.TrackingNumber,
}));
`;
  writeFileSync(path.join(project, 'call.mjs'), script);
  const answer = JSON.parse(await succeed(process.execPath, ['call.mjs'], project, { PARCEL_URL: stack.url }));
  expect(answer).toEqual({ created: expect.stringMatching(/^PX[0-9A-Z]{16}$/), station: 'SGL0150', refused: 'recipient_country(ZZ) not allow', found: answer.created });
});

test('the installed parcelctl bin prints its help and calls the server', async () => {
  const bin = path.join(project, 'node_modules/.bin/parcelctl');
  expect(await succeed(bin, ['--help'], project)).toContain('Usage: parcelctl [options] <command> [arguments]');
  const env = { PARCEL_URL: stack.url, PARCEL_API_NAME: 'demo', PARCEL_API_KEY: 'demo-secret' };
  expect(JSON.parse(await succeed(bin, ['stations', '637586'], project, env))[0].Station_Code).toBe('SGL0150');
});

test('the declarations type-check a consumer without @types/node, and catch a wrong use', async () => {
  const source = (barcodeType: string) => `
import { InterfaceBClient } from '@parcel-logistics/client';
import type { Order, Result, StatusRecordB } from '@parcel-logistics/client';
const b = new InterfaceBClient({ baseUrl: 'http://localhost:8080', apiName: 'demo', apiKey: 'demo-secret' });
const order: Order = ${JSON.stringify(orderBody())};
export const created = await b.createOrder(order, { idempotencyKey: order.custom_tracking_num });
export const status: Result<StatusRecordB> = await b.queryStatus('PX7K2P9S4W8Y1Q3T55');
const barcode = await b.getBarcode('ORDER-1001');
export const value: ${barcodeType} = barcode.ok ? barcode.data.barcode : barcode.error.message;
`;
  const tsconfig = { compilerOptions: { noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] }, files: ['consumer.ts'] };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  writeFileSync(path.join(project, 'consumer.ts'), source('string'));
  expect(await run(process.execPath, [tsc, '-p', '.'], project)).toMatchObject({ code: 0, stdout: '' });
  writeFileSync(path.join(project, 'consumer.ts'), source('number'));
  const wrong = await run(process.execPath, [tsc, '-p', '.'], project);
  expect(wrong.code).not.toBe(0);
  expect(wrong.stdout).toContain("Type 'string' is not assignable to type 'number'");
}, 60_000);
