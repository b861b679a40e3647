/**
 * Append throughput of the PostgreSQL event store: sequential single appends against 200
 * concurrent ones (serialised by the append lock, so concurrency only fills the pipeline), in a
 * throw-away schema. Run: PARCEL_PG_URL=postgres://... node packages/eventstore-postgres/bench/postgresAppendThroughput.ts
 */
import { newStreamAppend } from '@parcel-logistics/eventstore/bench';
import { pgTestUrl, tempSchema } from '@parcel-logistics/postgres/scratch';
import { createPostgresEventStore } from '../src/postgres.ts';

const concurrency = 200;
const url = pgTestUrl();

async function measure(
  url: string,
  mode: 'sequential' | 'concurrent',
  total: number,
  poolSize: number,
): Promise<number> {
  const { schema, drop } = tempSchema(url, 'parcel_bench');
  const store = await createPostgresEventStore({ connectionString: url, schema, poolSize });
  try {
    const started = performance.now();
    if (mode === 'sequential') {
      for (let i = 0; i < total; i++) await store.append(newStreamAppend());
    } else {
      for (let done = 0; done < total; done += concurrency) {
        await Promise.all(Array.from({ length: concurrency }, () => store.append(newStreamAppend())));
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
