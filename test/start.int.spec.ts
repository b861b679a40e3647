/**
 * README "Two commands": `npm start` serves until it is stopped, and stopping it stops everything
 * it started, whether by Ctrl-C in the terminal (SIGINT to the whole process group, plus the one
 * npm forwards) or by `kill <pid of npm start>` (SIGTERM to npm alone, which npm forwards to its
 * child only). The real `npm start` runs here on free ports and a temporary data directory.
 *
 * docs/operations.md's procedures on the same data: a stopped server leaves the three databases
 * alone in the directory, a copy of it (`cp -a`) starts with the same parcels, `kill` of the pid in
 * the server's log lines stops it cleanly too, deleting the directory (`rm -rf`) starts it empty,
 * and putting the copy back restores the parcels.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { clientB, realTime } from './support/client.ts';
import {
  alive,
  childrenOf,
  freePort,
  groupMembers,
  killGroup,
  npmStart,
  portOpen,
  within,
} from './support/npmStart.ts';
import type { NpmStart } from './support/npmStart.ts';
import { orderBody } from './support/orders.ts';

jest.setTimeout(180_000);

const work = mkdtempSync(path.join(tmpdir(), 'parcel-start-'));
const dataDir = path.join(work, 'data');
const backupDir = path.join(work, 'parcel-backup');
const started: NpmStart[] = [];
let env: { PORT: string; PARCEL_SANDBOX_PORT: string; PARCEL_DATA_DIR: string; HOST: string };

beforeAll(async () => {
  const port = await freePort();
  let sandboxPort = await freePort();
  while (sandboxPort === port) sandboxPort = await freePort();
  env = { PORT: String(port), PARCEL_SANDBOX_PORT: String(sandboxPort), PARCEL_DATA_DIR: dataDir, HOST: '127.0.0.1' };
});

afterAll(() => {
  for (const run of started) killGroup(run.pid);
  rmSync(work, { recursive: true, force: true });
});

async function start(overrides: { PARCEL_DATA_DIR?: string } = {}): Promise<NpmStart> {
  const run = await npmStart({ ...env, ...overrides });
  started.push(run);
  return run;
}

let trackingNumber = '';

/** A connection with a request in progress: its headers are never finished. */
async function slowRequest(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {}); // reset by the server's end, if it comes first
  socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
  return socket;
}

test('Ctrl-C (SIGINT to the process group, repeated while it stops) stops every process of `npm start` cleanly and closes the port', async () => {
  const run = await start();
  const created = await clientB(realTime(run.url)).post('order/create-order', orderBody());
  expect(created.body).toMatchObject({ code: 0 });
  trackingNumber = created.body.data.wmg_tracking_num;
  const [server] = childrenOf(run.pid);
  expect(server).toBeDefined();
  // A request whose headers never end keeps the server's close waiting, so the server is still
  // stopping when the repeated SIGINT arrives (the stop takes a few ms otherwise).
  const slow = await slowRequest(Number(env.PORT));

  process.kill(-run.pid, 'SIGINT');
  // npm forwards one more SIGINT, which may or may not arrive apart from the terminal's; one more
  // while the server stops (a second Ctrl-C) makes the repeat certain.
  expect(await within(15_000, () => /"msg":"parcel service \(embedded\) stopping"/.test(run.output()))).toBe(true);
  process.kill(server!, 'SIGINT');
  await within(1_000, () => !alive(server!)); // a repeat that kills does so at once; a handled one leaves it running
  slow.destroy();

  if (!(await within(15_000, () => groupMembers(run.pid).length === 0))) {
    throw new Error(
      `still running 15 s after SIGINT to the group: ${groupMembers(run.pid).join(' ')}\n${run.output()}`,
    );
  }
  expect(await portOpen(Number(env.PORT))).toBe(false);
  expect(await portOpen(Number(env.PARCEL_SANDBOX_PORT))).toBe(false);
  // A clean stop (stores closed), not the default action of the second SIGINT (npm forwards one
  // besides the terminal's), which would end the process in the middle of it.
  await run.closed;
  expect(run.output()).toMatch(/"msg":"parcel service \(embedded\) stopped"/);
});

test('`kill <pid of npm start>` (SIGTERM to npm only) stops the node server too, and the data of the run before is there', async () => {
  const run = await start();
  const status = await clientB(realTime(run.url)).get('order/query-status', { tracking_num: trackingNumber });
  expect(status.body).toMatchObject({ code: 0, data: { tracking_number: trackingNumber } });
  const servers = childrenOf(run.pid);
  expect(servers).toHaveLength(1);
  const server = servers[0]!;

  process.kill(run.pid, 'SIGTERM');

  if (!(await within(15_000, () => !alive(server)))) {
    throw new Error(
      `the server (pid ${server}) was still running 15 s after SIGTERM to npm (pid ${run.pid})\n${run.output()}`,
    );
  }
  expect(await within(15_000, () => groupMembers(run.pid).length === 0)).toBe(true);
  expect(await portOpen(Number(env.PORT))).toBe(false);
  await run.closed;
  expect(run.output()).toMatch(/"msg":"parcel service \(embedded\) stopped"/);
});

/** A shell command of docs/operations.md, run as written there but on this test's directories. */
const sh = (command: string) => execFileSync('bash', ['-c', command], { cwd: work, stdio: 'pipe' });

const status = (run: NpmStart) =>
  clientB(realTime(run.url)).get('order/query-status', { tracking_num: trackingNumber });

/** The server's pid as its log lines give it (docs/operations.md: "the `pid` of its log lines"). */
function loggedPid(run: NpmStart): number {
  const listening = run
    .output()
    .split('\n')
    .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as { msg?: string; pid?: number }] : []))
    .find((entry) => entry.msg === 'parcel service (embedded) listening');
  expect(listening?.pid).toEqual(expect.any(Number));
  return listening!.pid!;
}

/** `kill <pid>` of the server itself, then everything of that npm start must be gone, cleanly. */
async function killServer(run: NpmStart): Promise<void> {
  const pid = loggedPid(run);
  expect(childrenOf(run.pid)).toEqual([pid]);
  process.kill(pid, 'SIGTERM');
  if (!(await within(15_000, () => groupMembers(run.pid).length === 0))) {
    throw new Error(
      `still running 15 s after SIGTERM to the server (pid ${pid}): ${groupMembers(run.pid).join(' ')}\n${run.output()}`,
    );
  }
  await run.closed;
  expect(run.output()).toMatch(/"msg":"parcel service \(embedded\) stopped"/);
}

/** A stopped server's data directory (docs/operations.md): the four databases, the key store and its master key. */
const DATA_FILES = ['accounts.db', 'events.db', 'keys.db', 'master.key', 'projections.db', 'webhooks.db'];

test('docs/operations.md "Backups": once stopped, the directory holds the four databases, the key store and its master key alone, and a copy of it (cp -a) starts with the same parcels; `kill` of the logged pid stops it cleanly', async () => {
  // The server of the test before has stopped cleanly: the -wal files are folded in.
  expect(readdirSync(dataDir).sort()).toEqual(DATA_FILES);
  sh(`cp -a data ${path.basename(backupDir)}`);

  const run = await start({ PARCEL_DATA_DIR: backupDir });
  expect((await status(run)).body).toMatchObject({ code: 0, data: { tracking_number: trackingNumber } });
  await killServer(run);
  expect(await portOpen(Number(env.PORT))).toBe(false);
});

test('docs/operations.md "Resetting its data": stopped, the data directory deleted (rm -rf), the next start has none of the earlier parcels', async () => {
  sh('rm -rf data');

  const run = await start();
  expect((await status(run)).body).toEqual({
    code: 1,
    message: 'fail',
    data: { tracking_number: trackingNumber, remarks: 'No Record(s)' },
  });
  await killServer(run);
  expect(readdirSync(dataDir).sort()).toEqual(DATA_FILES);
});

test('docs/operations.md "Backups", restore: stopped, the copy put in place of the data directory, the parcels are back', async () => {
  sh(`rm -rf data && cp -a ${path.basename(backupDir)} data`);

  const run = await start();
  expect((await status(run)).body).toMatchObject({ code: 0, data: { tracking_number: trackingNumber } });
  await killServer(run);
});
