/**
 * Append throughput of the SQLite event store: sequential single appends (one commit each)
 * against 200 concurrent appends (group commit), for both durabilities.
 * Run: node packages/eventstore/bench/appendThroughput.ts [directory for the database files]
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppendRequest } from '../src/port.ts';
import { createSqliteEventStore } from '../src/sqlite.ts';

const concurrency = 200;

const request = (): AppendRequest => ({
  streamName: `parcel-${randomUUID()}`,
  expectedRevision: 'no_stream',
  events: [{ id: randomUUID(), type: 'ParcelRegistered.v1', data: { weight: 1.2, reference: 'REF-1' }, metadata: { by: 'bench' } }],
});

async function measure(durability: 'full' | 'normal', mode: 'sequential' | 'concurrent', total: number): Promise<number> {
  const dir = await mkdtemp(join(process.argv[2] ?? tmpdir(), 'parcel-bench-'));
  const store = createSqliteEventStore({ file: join(dir, 'events.db'), durability });
  try {
    const started = performance.now();
    if (mode === 'sequential') {
      for (let i = 0; i < total; i++) await store.append(request());
    } else {
      for (let done = 0; done < total; done += concurrency) {
        await Promise.all(Array.from({ length: concurrency }, () => store.append(request())));
      }
    }
    return total / ((performance.now() - started) / 1000);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

for (const durability of ['full', 'normal'] as const) {
  const sequential = await measure(durability, 'sequential', durability === 'full' ? 1000 : 5000);
  const concurrent = await measure(durability, 'concurrent', 20_000);
  console.log(
    `durability=${durability}: sequential ${Math.round(sequential)} appends/s, ${concurrency} concurrent ${Math.round(concurrent)} appends/s`,
  );
}
