/**
 * The client SDK, publishable: `npm pack` (as a user would run it) builds
 * @parcel-logistics/client into a tarball of compiled JS and .d.ts whose package.json points at
 * dist/, and so does `pnpm pack`; npm installs it offline into a fresh project (it has no
 * dependencies), where, on Node 24 and on the machine's Node 20 (the oldest the package declares),
 * a plain .mjs script calls the embedded stack without TypeScript and the installed `parcelctl`
 * bin runs; and the declarations type-check a consumer's code.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: childPath(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

const CLIENT = path.join(ROOT, 'packages/client');

/** Packs the client with `npm pack` or `pnpm pack` into a directory of its own; answers the tarball. */
async function pack(packer: 'npm' | 'pnpm', into: string): Promise<string> {
  mkdirSync(into);
  await succeed(packer, ['pack', '--pack-destination', into], CLIENT);
  const tgz = readdirSync(into).filter((f) => f.endsWith('.tgz'));
  expect(tgz).toHaveLength(1);
  return path.join(into, tgz[0]!);
}

const tarFiles = async (tgz: string) =>
  (await succeed('tar', ['-tzf', tgz], path.dirname(tgz))).trim().split('\n').sort();
const tarText = (tgz: string, file: string) => succeed('tar', ['-xzOf', tgz, `package/${file}`], path.dirname(tgz));

let stack: TestStack;
let dir: string;
const tarballs: Record<'npm' | 'pnpm', string> = { npm: '', pnpm: '' };
let project: string;
beforeAll(async () => {
  stack = await startRealTimeStack();
  dir = mkdtempSync(path.join(tmpdir(), 'parcel-pack-'));
  // One after the other: each runs the prepack build, which empties dist/ first.
  tarballs.pnpm = await pack('pnpm', path.join(dir, 'pnpm'));
  tarballs.npm = await pack('npm', path.join(dir, 'npm'));
  project = path.join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await succeed(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--cache', path.join(dir, 'npm-cache'), tarballs.npm],
    project,
  );
}, 180_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.destroy();
});

describe.each(['npm', 'pnpm'] as const)('%s pack', (packer) => {
  test('the tarball holds the compiled package, its README and LICENSE, not the TypeScript sources', async () => {
    const files = await tarFiles(tarballs[packer]);
    expect(files).toEqual(
      expect.arrayContaining([
        'package/README.md',
        'package/LICENSE',
        'package/package.json',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/cli.js',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(await tarText(tarballs[packer], 'LICENSE')).toBe(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'));
  });

  test('the packed manifest points to dist/, at files the tarball holds, and names no dependency', async () => {
    const manifest = JSON.parse(await tarText(tarballs[packer], 'package.json'));
    expect(manifest).toMatchObject({
      name: '@parcel-logistics/client',
      type: 'module',
      engines: { node: '>=20' },
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      main: './dist/index.js',
      types: './dist/index.d.ts',
      bin: { parcelctl: './dist/cli.js' },
    });
    // The workspace's own condition (its TypeScript sources) may stay: no consumer sets it.
    expect(Object.keys(manifest.exports['.'])).toEqual(['@parcel-logistics/source', 'types', 'default']);
    const files = await tarFiles(tarballs[packer]);
    const { types, default: entry } = manifest.exports['.'];
    for (const target of [types, entry, manifest.main, manifest.types, manifest.bin.parcelctl])
      expect(files).toContain(path.posix.join('package', target));
    expect(manifest.dependencies).toBeUndefined();
  });
});

test('inside the workspace, jest resolves the client to its TypeScript sources even once dist/ is built', () => {
  expect(require.resolve('@parcel-logistics/client')).toBe(path.join(CLIENT, 'src/index.ts'));
});

/**
 * The oldest Node the package declares, found where the machine keeps its own Node: a `node` on
 * PATH (or in /usr/local/bin, /usr/bin) whose major version is 20. The Node 24 under .tools is
 * passed over by its version.
 */
function machineNode(major: number): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/bin', '/usr/bin'];
  for (const candidate of new Set(dirs.filter(Boolean).map((d) => path.join(d, 'node')))) {
    try {
      accessSync(candidate, constants.X_OK);
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], {
        encoding: 'utf8',
        timeout: 10_000,
      }).trim();
      if (Number(version.split('.')[0]) === major) return candidate;
    } catch {
      // Not there, or not a Node that runs here.
    }
  }
  return undefined;
}

const NODE_20 = machineNode(20);
const NO_NODE_20 =
  'skipped: no Node 20 on this machine (no `node` of major version 20 on PATH, in /usr/local/bin or /usr/bin)';
if (!NODE_20) console.warn(`package.int.spec.ts: the Node 20 tests are ${NO_NODE_20}`);

const runtimes = [
  {
    title: `Node ${process.versions.node}, the one running the tests`,
    node: process.execPath,
    major: Number(process.versions.node.split('.')[0]),
  },
  { title: NODE_20 ? `Node 20, the machine's (${NODE_20})` : `Node 20: ${NO_NODE_20}`, node: NODE_20, major: 20 },
];

for (const { title, node, major } of runtimes) {
  (node ? describe : describe.skip)(title, () => {
    // The bin starts with `#!/usr/bin/env node`: this Node first on PATH is the one that runs it.
    const onPath = () => ({ PATH: `${path.dirname(node!)}${path.delimiter}${childPath()}` });

    test('a plain .mjs script imports @parcel-logistics/client from dist/ and calls the server through both interfaces', async () => {
      const script = `
import { InterfaceAClient, InterfaceBClient } from '@parcel-logistics/client';
const options = { baseUrl: process.env.PARCEL_URL, apiName: 'demo', apiKey: 'demo-secret' };
const order = ${JSON.stringify(orderBody())};
const b = new InterfaceBClient(options);
const created = await b.createOrder(order);
const stations = await b.getStations('637586');
const refused = await b.createOrder({ ...order, custom_tracking_num: order.custom_tracking_num + 'Z', recipient_country: 'ZZ' });
const found = await new InterfaceAClient(options).lookUpTrackingNumber(order.custom_tracking_num);
console.log(JSON.stringify({
  node: process.versions.node,
  entry: new URL(import.meta.resolve('@parcel-logistics/client')).pathname,
  created: created.ok && created.data.wmg_tracking_num,
  station: stations.ok && stations.data[0].Station_Code,
  refused: !refused.ok && refused.error.message,
  found: found.ok && found.data.TrackingNumber,
}));
`;
      const file = `call-${major}.mjs`;
      writeFileSync(path.join(project, file), script);
      const answer = JSON.parse(await succeed(node!, [file], project, { PARCEL_URL: stack.url }));
      expect(answer).toEqual({
        node: expect.stringMatching(new RegExp(`^${major}\\.`)),
        entry: path.join(project, 'node_modules/@parcel-logistics/client/dist/index.js'),
        created: expect.stringMatching(/^PX[0-9A-Z]{16}$/),
        station: 'SGL0150',
        refused: 'recipient_country(ZZ) not allow',
        found: answer.created,
      });
    });

    test('the installed parcelctl bin prints its help and calls the server', async () => {
      expect((await succeed('node', ['-p', 'process.versions.node'], project, onPath())).trim()).toMatch(
        new RegExp(`^${major}\\.`),
      );
      const bin = path.join(project, 'node_modules/.bin/parcelctl');
      expect(await succeed(bin, ['--help'], project, onPath())).toContain(
        'Usage: parcelctl [options] <command> [arguments]',
      );
      const env = { ...onPath(), PARCEL_URL: stack.url, PARCEL_API_NAME: 'demo', PARCEL_API_KEY: 'demo-secret' };
      expect(JSON.parse(await succeed(bin, ['stations', '637586'], project, env))[0].Station_Code).toBe('SGL0150');
    });
  });
}

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
  const tsconfig = {
    compilerOptions: {
      noEmit: true,
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
    },
    files: ['consumer.ts'],
  };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  writeFileSync(path.join(project, 'consumer.ts'), source('string'));
  expect(await run(process.execPath, [tsc, '-p', '.'], project)).toMatchObject({ code: 0, stdout: '' });
  writeFileSync(path.join(project, 'consumer.ts'), source('number'));
  const wrong = await run(process.execPath, [tsc, '-p', '.'], project);
  expect(wrong.code).not.toBe(0);
  expect(wrong.stdout).toContain("Type 'string' is not assignable to type 'number'");
}, 60_000);
