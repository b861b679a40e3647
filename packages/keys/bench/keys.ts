/**
 * What crypto-shredding costs per operation on the create-order path: sealing and unsealing one
 * personal value, making a data key (generate and wrap) and opening one (unwrap), a cache hit, and
 * creating a key in the SQLite store (both durabilities, one at a time and 200 concurrent, which
 * commit together) and, with PARCEL_PG_URL set, in the PostgreSQL store.
 *
 * `seal (naive)` is the straightforward version (randomBytes per IV, Buffer.concat) that seal()'s
 * IV pool and single output buffer are measured against.
 *
 * Run: node packages/keys/bench/keys.ts   (BENCH_SCALE=0.2 for a quick run)
 * Prints a table; writes bench/results/keys.json.
 */
import { createCipheriv, generateKeySync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDataKey, openDataKey } from '../src/adapter.ts';
import { cachedKeyStore } from '../src/cache.ts';
import { masterKeyFromBytes } from '../src/masterKey.ts';
import type { KeyStore } from '../src/port.ts';
import { seal, unseal } from '../src/seal.ts';
import { createSqliteKeyStore } from '../src/sqlite.ts';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const masterKey = masterKeyFromBytes(randomBytes(32));
const dataKey = generateKeySync('aes', { length: 256 });
const phone = '+65 9123 4567';
const address = 'Blk 123 Ang Mo Kio Avenue 6, #12-345, Singapore 560123, attention of Jane Doe (leave at the door)';
const aad = 'parcel-PX1234567890ABCDEF/ParcelRegistered.v2/recipient.address';

interface Row {
  operation: string;
  iterations: number;
  nsPerOp: number;
  opsPerSecond: number;
}
const rows: Row[] = [];

function record(operation: string, iterations: number, elapsedNs: number): void {
  const nsPerOp = elapsedNs / iterations;
  rows.push({ operation, iterations, nsPerOp: Math.round(nsPerOp), opsPerSecond: Math.round(1e9 / nsPerOp) });
}

/** Best of three runs of `iterations` calls, after a warm-up run. */
function timeSync(operation: string, iterations: number, fn: (i: number) => void): void {
  const n = Math.max(1, Math.round(iterations * scale));
  for (let i = 0; i < Math.min(n, 10_000); i++) fn(i);
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    best = Math.min(best, Number(process.hrtime.bigint() - started));
  }
  record(operation, n, best);
}

async function timeAsync(operation: string, iterations: number, fn: (i: number) => Promise<unknown>, concurrency = 1) {
  const n = Math.max(1, Math.round(iterations * scale));
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
  record(operation, n, Number(process.hrtime.bigint() - started));
}

function naiveSeal(key: KeyObject, plaintext: string, additional: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(additional));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

// Crypto alone.
const sealedPhone = seal(dataKey, phone, aad);
const sealedAddress = seal(dataKey, address, aad);
timeSync(`seal (${Buffer.byteLength(phone)} B)`, 200_000, () => seal(dataKey, phone, aad));
timeSync(`seal (naive, ${Buffer.byteLength(phone)} B)`, 200_000, () => naiveSeal(dataKey, phone, aad));
timeSync(`unseal (${Buffer.byteLength(phone)} B)`, 200_000, () => unseal(dataKey, sealedPhone, aad));
timeSync(`seal+unseal (${Buffer.byteLength(phone)} B)`, 200_000, () => unseal(dataKey, seal(dataKey, phone, aad), aad));
timeSync(`seal+unseal (${Buffer.byteLength(address)} B)`, 200_000, () =>
  unseal(dataKey, seal(dataKey, address, aad), aad),
);
void sealedAddress;
timeSync('data key: generate + wrap', 50_000, (i) => newDataKey(masterKey, `PX${i}`, 1));
const made = newDataKey(masterKey, 'PX-open', 1);
timeSync('data key: unwrap', 50_000, () => openDataKey(masterKey, 'PX-open', 1, made.wrapped));

// Stores.
async function storeRuns(label: string, open: () => Promise<{ store: KeyStore; close: () => Promise<void> }>) {
  for (const [mode, concurrency, total] of [
    ['sequential', 1, label === 'sqlite normal' ? 5000 : 500],
    ['200 concurrent', 200, 20_000],
  ] as const) {
    const { store, close } = await open();
    try {
      await store.create('warm-up');
      await timeAsync(`create key: ${label}, ${mode}`, total, (i) => store.create(`PX-${mode}-${i}`), concurrency);
    } finally {
      await close();
    }
  }
}

const dir = await mkdtemp(join(process.argv[2] ?? tmpdir(), 'parcel-keys-bench-'));
try {
  for (const durability of ['full', 'normal'] as const) {
    await storeRuns(`sqlite ${durability}`, async () => {
      const file = join(dir, `keys-${durability}-${rows.length}.db`);
      const store = createSqliteKeyStore({ file, masterKey, durability });
      return { store, close: () => store.close() };
    });
  }
  // A cache hit: the find that every later event of a parcel makes.
  const store = cachedKeyStore(createSqliteKeyStore({ file: join(dir, 'cache.db'), masterKey }));
  await Promise.all(Array.from({ length: 1000 }, (_, i) => store.create(`PX-${i}`)));
  await timeAsync('find 1 key: cache hit', 200_000, (i) => store.find([`PX-${i % 1000}`]));
  store.clear();
  await timeAsync('find 1 key: sqlite (cache miss)', 50_000, (i) => (store.clear(), store.find([`PX-${i % 1000}`])));
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

if (process.env.PARCEL_PG_URL) {
  const { createPostgresKeyStore } = await import('../src/postgres.ts');
  const { default: pg } = await import('pg');
  await storeRuns('postgres', async () => {
    // A throw-away schema of its own, dropped with everything in it when the run ends.
    const schema = `keys_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const drop = async () => {
      const client = new pg.Client({ connectionString: process.env.PARCEL_PG_URL! });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
    };
    const store = await createPostgresKeyStore({
      connectionString: process.env.PARCEL_PG_URL!,
      schema,
      masterKey,
      poolSize: 10,
    });
    return {
      store,
      close: async () => {
        await store.close();
        await drop();
      },
    };
  });
}

const width = Math.max(...rows.map((r) => r.operation.length));
console.log(`${'operation'.padEnd(width)}  ${'µs/op'.padStart(9)}  ${'ops/s'.padStart(10)}  iterations`);
for (const row of rows) {
  console.log(
    `${row.operation.padEnd(width)}  ${(row.nsPerOp / 1000).toFixed(2).padStart(9)}  ${String(row.opsPerSecond).padStart(10)}  ${row.iterations}`,
  );
}
// Beside the other benchmarks' results (bench/results/ at the repository's root, not committed).
const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bench', 'results', 'keys.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      node: process.version,
      cpu: os.cpus()[0]?.model,
      cpus: os.cpus().length,
      scale,
      rows,
    },
    null,
    2,
  )}\n`,
);
console.log(`written to ${out}`);
