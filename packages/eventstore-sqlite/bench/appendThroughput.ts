/**
 * Append throughput of the SQLite event store, and how responsive the main thread stays meanwhile.
 *
 * Scenarios, for both durabilities and both writers (`thread`: commits on the writer thread, the
 * default; `main`: `writerThread: false`, commits on the main thread as before the writer thread):
 *   sequential       single appends one after another (one commit each: the background-worker case)
 *   concurrent       200 appenders at once (group commit)
 *   concurrent+subs  the same with 3 catch-up subscriptions saving checkpoints (the service's shape)
 * Lag: a setInterval(…, 1) timer runs throughout; `max` is its worst delay beyond 1 ms, `p99` the
 * 99th percentile of those delays, `≥10 ms` how many were that long. On a busy machine the
 * scheduler adds delays of its own: compare several runs.
 *
 * A slow disk (where the fsync per commit hurts most): the LD_PRELOAD shim in slowfsync.c.
 *
 * Run: node packages/eventstore-sqlite/bench/appendThroughput.ts [directory for the database files]
 * Options (environment): BENCH_WRITERS=thread,main  BENCH_DURABILITY=full,normal  BENCH_SCALE=1
 * SQLITE_STORE_MODULE=/path/to/sqlite.ts measures another build of the adapter (before/after).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EventStore, Subscription } from '@parcel-logistics/eventstore';
import { newStreamAppend } from '@parcel-logistics/eventstore/bench';
import type * as Sqlite from '../src/sqlite.ts';

const { createSqliteEventStore } = (await import(
  process.env.SQLITE_STORE_MODULE ? pathToFileURL(resolve(process.env.SQLITE_STORE_MODULE)).href : '../src/sqlite.ts'
)) as typeof Sqlite;

const concurrency = 200;
const scale = Number(process.env.BENCH_SCALE ?? 1);
const list = <T extends string>(name: string, fallback: T[]): T[] =>
  (process.env[name]?.split(',') as T[] | undefined) ?? fallback;
const writers = list<'thread' | 'main'>('BENCH_WRITERS', ['thread', 'main']);
const durabilities = list<'full' | 'normal'>('BENCH_DURABILITY', ['full', 'normal']);

/** Delays of a 1 ms interval timer beyond its 1 ms, while `work` runs. */
async function withLagProbe<T>(
  work: () => Promise<T>,
): Promise<{ value: T; maxLagMs: number; p99LagMs: number; over10: number }> {
  const lags: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - last - 1));
    last = now;
  }, 1);
  try {
    const value = await work();
    // A final tick: a loop blocked until the very end still shows.
    await new Promise((r) => setTimeout(r, 2));
    lags.sort((a, b) => a - b);
    return {
      value,
      maxLagMs: lags.at(-1) ?? 0,
      p99LagMs: lags[Math.floor(lags.length * 0.99)] ?? 0,
      over10: lags.filter((lag) => lag >= 10).length,
    };
  } finally {
    clearInterval(timer);
  }
}

type Mode = 'sequential' | 'concurrent' | 'concurrent+subs';

async function measure(writer: 'thread' | 'main', durability: 'full' | 'normal', mode: Mode, total: number) {
  const dir = await mkdtemp(join(process.argv[2] ?? tmpdir(), 'parcel-bench-'));
  const store: EventStore = createSqliteEventStore({
    file: join(dir, 'events.db'),
    durability,
    writerThread: writer === 'thread',
  });
  const subscriptions: Subscription[] = [];
  try {
    // Warm up (the writer thread starts, statements are prepared) outside the measurement.
    await store.append(newStreamAppend());
    if (mode === 'concurrent+subs') {
      for (const n of [1, 2, 3]) {
        subscriptions.push(store.subscribeToAll({ subscriptionId: `bench-${n}`, handler: async () => undefined }));
      }
      await Promise.all(subscriptions.map((s) => s.caughtUp()));
    }
    const started = performance.now();
    const { maxLagMs, p99LagMs, over10 } = await withLagProbe(async () => {
      if (mode === 'sequential') {
        for (let i = 0; i < total; i++) await store.append(newStreamAppend());
      } else {
        // 200 appenders, each appending again as soon as its previous append resolved.
        let issued = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (issued++ < total) await store.append(newStreamAppend());
          }),
        );
      }
    });
    const seconds = (performance.now() - started) / 1000;
    return { rate: total / seconds, maxLagMs, p99LagMs, over10 };
  } finally {
    await Promise.all(subscriptions.map((s) => s.stop()));
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const label = process.env.SQLITE_STORE_MODULE ? ` [${process.env.SQLITE_STORE_MODULE}]` : '';
for (const durability of durabilities) {
  for (const writer of writers) {
    const runs: [Mode, number][] = [
      ['sequential', Math.round((durability === 'full' ? 1000 : 5000) * scale)],
      ['concurrent', Math.round(20_000 * scale)],
      ['concurrent+subs', Math.round(20_000 * scale)],
    ];
    for (const [mode, total] of runs) {
      const { rate, maxLagMs, p99LagMs, over10 } = await measure(writer, durability, mode, total);
      const modeLabel = mode === 'sequential' ? mode : mode.replace('concurrent', `${concurrency} concurrent`);
      console.log(
        `durability=${durability} writer=${writer}${label}: ${modeLabel.padEnd(22)} ${String(Math.round(rate)).padStart(6)} appends/s, ` +
          `loop lag max ${maxLagMs.toFixed(1)} ms, p99 ${p99LagMs.toFixed(1)} ms, ${over10} delays ≥10 ms`,
      );
    }
  }
}
