/**
 * Append throughput of the PostgreSQL event store: sequential single appends against 200
 * concurrent ones (serialised by the append lock, so concurrency only fills the pipeline), in a
 * throw-away schema. Run: PARCEL_PG_URL=postgres://... node packages/eventstore-postgres/bench/postgresAppendThroughput.ts
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AppendRequest } from '@parcel-logistics/eventstore';
import { createPostgresEventStore } from '../src/postgres.ts';

const concurrency = 200;
const url = process.env.PARCEL_PG_URL;
if (!url) throw new Error('PARCEL_PG_URL is not set: start PostgreSQL with `eval "$(bash infra/up.sh postgres)"`');

/** A schema of this run's own (the bench imports no test code); `drop` removes it with everything in it. */
function scratchSchema(url: string): { schema: string; drop: () => Promise<void> } {
  const schema = `parcel_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

const request = (): AppendRequest => ({
  streamName: `parcel-${randomUUID()}`,
  expectedRevision: 'no_stream',
  events: [
    {
      id: randomUUID(),
      type: 'ParcelRegistered.v1',
      data: { weight: 1.2, reference: 'REF-1' },
      metadata: { by: 'bench' },
    },
  ],
});

async function measure(
  url: string,
  mode: 'sequential' | 'concurrent',
  total: number,
  poolSize: number,
): Promise<number> {
  const { schema, drop } = scratchSchema(url);
  const store = await createPostgresEventStore({ connectionString: url, schema, poolSize });
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
    await drop();
  }
}

const sequential = await measure(url, 'sequential', 2000, 1);
console.log(`sequential: ${Math.round(sequential)} appends/s`);
for (const poolSize of [10, 50]) {
  const concurrent = await measure(url, 'concurrent', 10_000, poolSize);
  console.log(`${concurrency} concurrent, pool of ${poolSize}: ${Math.round(concurrent)} appends/s`);
}
