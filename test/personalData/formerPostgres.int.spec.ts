/**
 * The one-time sealing of former events on PostgreSQL (docs/personal-data.md), as the order service
 * runs it before serving: events written with personal values in clear (`ParcelRegistered.v2`,
 * `CarrierEventRecorded.v1`) are sealed in place, no row holds a value in clear afterwards, the
 * events read back as they were through the sealing event store, and the migration runs once. On a
 * new deployment it finds nothing to seal and leaves the log's statistics as they were.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sealFormerEvents, sealingEventStore } from '@parcel-logistics/application';
import { serializeEvent } from '@parcel-logistics/contracts';
import type { DomainEvent } from '@parcel-logistics/domain';
import { sampleDelivered, sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createPostgresEventRewriter, createPostgresEventStore } from '@parcel-logistics/eventstore-postgres';
import { masterKeyFromBytes } from '@parcel-logistics/keys';
import { scansOfPlanFromEmpty, tempSchema } from '@parcel-logistics/postgres/scratch';
import { createSqliteKeyStore } from '@parcel-logistics/keys/sqlite';

const url = process.env.PARCEL_PG_URL;
const maybe = url ? test : test.skip;
const schema = `former_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const name = `Former${randomUUID().slice(0, 8)}`;
const TN = 'PX0000000000000042';

afterAll(async () => {
  if (!url) return;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.end());
});

maybe('former events are sealed in place once, and read back as they were', async () => {
  const events: DomainEvent[] = [
    {
      type: 'ParcelRegistered',
      data: {
        clientId: 'demo',
        order: sampleParcelOrder({ recipient: { name, country: 'SG', phone: '6500000042', address: `${name} Lane` } }),
        serviceType: 'LMD',
        carrier: 'LMX',
        trackingNumber: TN,
        registeredAt: new Date('2026-11-20T00:00:00Z'),
      },
    },
    sampleDelivered(TN, new Date('2026-11-21T00:00:00Z'), { location: `${name} Lane`, receiveBy: name }),
  ];
  // Written as the code before sealing wrote them: straight to the adapter.
  const plain = await createPostgresEventStore({ connectionString: url!, schema });
  await plain.append({
    streamName: `parcel-${TN}`,
    expectedRevision: 'no_stream',
    events: events.map((e) => ({ id: randomUUID(), ...serializeEvent(e) })),
  });
  const rows = async () => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query<{ type: string; text: string }>(`SELECT type, data::text AS text FROM "${schema}".events`))
        .rows;
    } finally {
      await db.end();
    }
  };
  expect((await rows()).some((r) => r.text.includes(name))).toBe(true);

  const keys = createSqliteKeyStore({ file: ':memory:', masterKey: masterKeyFromBytes(Buffer.alloc(32, 7)) });
  const rewriter = await createPostgresEventRewriter({ connectionString: url!, schema });
  expect(await sealFormerEvents(rewriter, keys)).toBe(2);
  expect(await sealFormerEvents(rewriter, keys)).toBe(0);
  await rewriter.close();

  const after = await rows();
  expect(after.map((r) => r.type).sort()).toEqual(['CarrierEventRecorded.v2', 'ParcelRegistered.v3']);
  expect(after.filter((r) => r.text.includes(name))).toEqual([]);
  const read = await sealingEventStore(plain, keys).readStream(`parcel-${TN}`);
  expect(read.map((r) => r.type)).toEqual(['ParcelRegistered.v2', 'CarrierEventRecorded.v1']);
  expect(JSON.stringify(read)).toContain(name);
  await plain.close();
  await keys.close();
});

maybe('two services starting at once: the migration runs once, neither fails', async () => {
  const fresh = `${schema}_twice`;
  const keys = createSqliteKeyStore({ file: ':memory:', masterKey: masterKeyFromBytes(Buffer.alloc(32, 9)) });
  try {
    const sealed = await Promise.all(
      [1, 2].map(async () => {
        const rewriter = await createPostgresEventRewriter({ connectionString: url!, schema: fresh });
        try {
          return await sealFormerEvents(rewriter, keys);
        } finally {
          await rewriter.close();
        }
      }),
    );
    expect(sealed).toEqual([0, 0]);
  } finally {
    await keys.close();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${fresh}" CASCADE`).finally(() => db.end());
  }
});

maybe(
  'a new deployment: nothing to seal, and the head of the log, read as an append reads it, goes through its index as the log grows',
  async () => {
    const { schema: fresh, drop } = tempSchema(url!, 'former_new');
    // The event store first, as when another service of the stack made the log before the order service.
    const store = await createPostgresEventStore({ connectionString: url!, schema: fresh });
    const keys = createSqliteKeyStore({ file: ':memory:', masterKey: masterKeyFromBytes(Buffer.alloc(32, 5)) });
    try {
      const rewriter = await createPostgresEventRewriter({ connectionString: url!, schema: fresh });
      expect(await sealFormerEvents(rewriter, keys).finally(() => rewriter.close())).toBe(0);
      // A VACUUM of the empty table would have recorded it as empty, and the plan made now would scan it whole.
      const onEvents = await scansOfPlanFromEmpty(
        url!,
        {
          prepare: `PREPARE head AS SELECT COALESCE(MAX(global_position), 0) FROM "${fresh}".events`,
          first: 'EXECUTE head',
          execute: 'EXECUTE head',
          relation: 'events',
        },
        async () => {
          for (let batch = 0; batch < 50; batch++) {
            await store.appendMany(
              Array.from({ length: 100 }, (_, i) => ({
                streamName: `parcel-${batch}-${i}`,
                expectedRevision: 'no_stream' as const,
                events: [{ id: randomUUID(), type: 'Planned.v1', data: {} }],
              })),
            );
          }
        },
      );
      expect(onEvents).toEqual(['Index Only Scan']);
    } finally {
      await store.close();
      await keys.close();
      await drop();
    }
  },
);
