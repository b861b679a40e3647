import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from '@jest/globals';
import { MongoClient, MongoServerError, MongoServerSelectionError } from 'mongodb';
import {
  expectFormerViewsDue,
  formerRetentionViews,
  parcelView,
  projectionStoreConformance,
} from '@parcel-logistics/projections/conformance';
import { createMongoProjectionStore } from './mongo.ts';
import { UPGRADE_UPDATE_ATTEMPTS, upgradeFromFormerIndexes, type ParcelDocument } from './mongoParcels.ts';
import { pairKey } from './mongoKeys.ts';

const url = process.env.PARCEL_MONGO_URL;
if (!url) {
  throw new Error(
    'PARCEL_MONGO_URL is not set: start the server with `eval "$(bash infra/up.sh mongo)"` (npm test does this)',
  );
}
// One database per run; the ids of the conformance suite are unique per test, so its tests share it.
const dbName = `parcel_projections_${randomUUID().slice(0, 8)}`;
const open = () => createMongoProjectionStore({ url, dbName });
/** The parcels collection's indexes, sorted by name, on a new collection and on an upgraded one alike. */
const parcelIndexNames = [
  '_id_',
  'parcels_by_account_reference',
  'parcels_by_id_client',
  'parcels_by_id_revision',
  'parcels_by_partner_key',
  'parcels_by_retention_created',
  'parcels_by_retention_final',
];

/** The parcels collection of `db` as the former layout kept it, and a write of views as that layout stored them. */
function formerParcels(client: MongoClient, db: string) {
  const parcels = client.db(db).collection<Record<string, unknown> & { _id: string }>('parcels');
  const insert = (views: ReturnType<typeof parcelView>[]) =>
    parcels.insertMany(
      views.map((view) => {
        const { trackingNumber, clientId, customTrackingNum, revision, carrier, partnerTrackingNo } = view;
        return { _id: trackingNumber, clientId, customTrackingNum, revision, carrier, partnerTrackingNo, view };
      }),
    );
  return { parcels, insert };
}

/** Runs `work` with a client of its own and a database of its own (`<prefix>_<random>`), dropped afterwards. */
const inOwnDatabase = async (
  prefix: string,
  work: (client: MongoClient, db: string) => Promise<void>,
): Promise<void> => {
  const db = `${prefix}_${randomUUID().slice(0, 8)}`;
  const client = await new MongoClient(url).connect();
  try {
    await work(client, db);
  } finally {
    await client.db(db).dropDatabase();
    await client.close();
  }
};

afterAll(async () => {
  const client = await new MongoClient(url).connect();
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
});

projectionStoreConformance('mongo', async () => {
  const store = await open();
  // mongo-java-server's memory backend keeps data while the server runs: a new client sees it.
  return { store, reopen: open, cleanup: () => store.close() };
});

describe('mongo projection store', () => {
  it('creates its indexes idempotently, also when two processes start at once', async () => {
    const freshDb = `parcel_projections_fresh_${randomUUID().slice(0, 8)}`;
    const openFresh = () => createMongoProjectionStore({ url, dbName: freshDb });
    const started = [...(await Promise.all([openFresh(), openFresh()])), await openFresh()];
    await Promise.all(started.map((store) => store.close()));
    const client = await new MongoClient(url).connect();
    try {
      const db = client.db(freshDb);
      const parcels = await db.collection('parcels').listIndexes().toArray();
      const tokens = await db.collection('tokens').listIndexes().toArray();
      const idempotency = await db.collection('idempotency').listIndexes().toArray();
      // Each lookup's index is unique with exactly the lookup's fields: the only kind mongo-java-server uses.
      expect(parcels.map((index) => index.name).sort()).toEqual(parcelIndexNames);
      expect(parcels.find((index) => index.name === 'parcels_by_account_reference')).toMatchObject({
        key: { clientId: 1, customTrackingNum: 1 },
        unique: true,
      });
      expect(parcels.find((index) => index.name === 'parcels_by_partner_key')).toMatchObject({
        key: { partnerKey: 1 },
        unique: true,
        sparse: true,
      });
      expect(tokens.find((index) => index.name === 'tokens_by_hash')).toMatchObject({
        key: { tokenHash: 1 },
        unique: true,
      });
      expect(idempotency.map((index) => index.name).sort()).toEqual([
        '_id_',
        'idempotency_by_id_owner_state',
        'idempotency_by_parcel',
        'idempotency_ttl',
      ]);
      expect(idempotency.find((index) => index.name === 'idempotency_by_parcel')).toMatchObject({
        key: { parcels: 1 },
        sparse: true,
      });
      expect(idempotency.find((index) => index.name === 'idempotency_by_id_owner_state')).toMatchObject({
        key: { _id: 1, owner: 1, state: 1 },
        unique: true,
      });
      expect(idempotency.find((index) => index.name === 'idempotency_ttl')).toMatchObject({
        key: { expireAt: 1 },
        expireAfterSeconds: 0,
      });
    } finally {
      await client.db(freshDb).dropDatabase();
      await client.close();
    }
  });

  it('upgrades a collection of the former layout: partner keys filled in by concurrent starts, the former indexes gone after the next start', async () => {
    const formerDb = `parcel_projections_former_${randomUUID().slice(0, 8)}`;
    const client = await new MongoClient(url).connect();
    try {
      const { parcels, insert } = formerParcels(client, formerDb);
      await parcels.createIndexes([
        { key: { clientId: 1, customTrackingNum: 1 }, name: 'parcels_by_reference' },
        { key: { carrier: 1, partnerTrackingNo: 1 }, name: 'parcels_by_partner' },
      ]);
      const views = [
        parcelView({ trackingNumber: 'OLD1', clientId: 'c', carrier: 'LMX', partnerTrackingNo: 'LMX-A' }),
        parcelView({ trackingNumber: 'OLD2', clientId: 'c', carrier: 'LMX', partnerTrackingNo: 'LMX-A' }),
        parcelView({ trackingNumber: 'OLD3', clientId: 'c', carrier: 'LMX', partnerTrackingNo: '' }),
      ];
      await insert(views);
      const starts = await Promise.allSettled([
        createMongoProjectionStore({ url, dbName: formerDb }),
        createMongoProjectionStore({ url, dbName: formerDb }),
      ]);
      const opened = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
      const failed = starts.find((start) => start.status === 'rejected');
      if (failed) {
        // The start that succeeded is closed too: its client would keep jest from ever exiting.
        await Promise.all(opened.map((store) => store.close()));
        throw failed.reason;
      }
      const [first, second] = [opened[0]!, opened[1]!];
      await second.close();
      try {
        expect(await first.parcels.getByPartnerTrackingNo('LMX', 'LMX-A')).toEqual(views[0]);
        expect(await first.parcels.getByReference('c', views[2]!.customTrackingNum)).toEqual(views[2]);
        expect(await first.parcels.getByPartnerTrackingNo('LMX', '')).toBeNull();
      } finally {
        await first.close();
      }
      // The upgrade's promise is that a later start finishes whatever concurrent starts left. On
      // mongo-java-server, index changes from two clients at once are not atomic (its catalogue is
      // read and written back whole), so now and then the former index is listed again after both
      // returned (seen once in a CI run). One start after them must leave exactly today's indexes.
      await (await createMongoProjectionStore({ url, dbName: formerDb })).close();
      const names = (await parcels.listIndexes().toArray()).map((index) => index.name).sort();
      expect(names).toEqual(parcelIndexNames);
    } finally {
      // Cleanup only (the name is this test's own): after two clients dropped the same index at
      // once, mongo-java-server now and then fails the drop with "index not found".
      await client
        .db(formerDb)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    }
  });

  it('a failed drop of a former index is the error reported, unless the index is listed gone', () =>
    inOwnDatabase('parcel_projections_drop', async (client, formerDb) => {
      const parcels = client.db(formerDb).collection<ParcelDocument>('parcels');
      // The drop fails as a start racing another does on mongo-java-server; what the list says after it is each case's own.
      const racing = (listAfter: 'gone' | 'still there' | 'fails') => {
        let lists = 0;
        const dropFailed = new Error('drop failed: the catalogue changed meanwhile');
        const collection = new Proxy(parcels, {
          get(target, property, receiver) {
            if (property === 'dropIndex') return () => Promise.reject(dropFailed);
            if (property === 'listIndexes')
              return () => {
                lists += 1;
                if (lists === 1) return target.listIndexes();
                // As the driver does: the cursor at once, the server's answer (or error) from toArray.
                if (listAfter === 'fails') return { toArray: () => Promise.reject(new Error('listIndexes failed')) };
                const left = listAfter === 'gone' ? [{ name: '_id_' }] : [{ name: 'parcels_by_reference' }];
                return { toArray: () => Promise.resolve(left) };
              };
            return Reflect.get(target, property, receiver) as unknown;
          },
        });
        return { collection, dropFailed };
      };
      await parcels.createIndex({ clientId: 1, customTrackingNum: 1 }, { name: 'parcels_by_reference' });

      await expect(upgradeFromFormerIndexes(racing('gone').collection)).resolves.toBeUndefined();
      const stillThere = racing('still there');
      await expect(upgradeFromFormerIndexes(stillThere.collection)).rejects.toBe(stillThere.dropFailed);
      const listFails = racing('fails');
      await expect(upgradeFromFormerIndexes(listFails.collection)).rejects.toBe(listFails.dropFailed);
    }));

  it('an update of the upgrade that the server fails with an error of its own is tried again, up to a bound', () =>
    inOwnDatabase('parcel_projections_retry', async (client, formerDb) => {
      const { parcels, insert } = formerParcels(client, formerDb);
      await parcels.createIndex({ carrier: 1, partnerTrackingNo: 1 }, { name: 'parcels_by_partner' });
      await insert([
        parcelView({ trackingNumber: 'RETRY1', clientId: 'c', carrier: 'LMX', partnerTrackingNo: 'LMX-R' }),
      ]);
      const typed = client.db(formerDb).collection<ParcelDocument>('parcels');
      // What mongo-java-server answered an update racing another start's index change.
      const failing = (failures: number) => {
        let calls = 0;
        const collection = new Proxy(typed, {
          get(target, property, receiver) {
            if (property === 'updateOne')
              return (...args: Parameters<typeof target.updateOne>) => {
                calls += 1;
                if (calls <= failures) return Promise.reject(new MongoServerError({ message: 'Unknown error: null' }));
                return target.updateOne(...args);
              };
            return Reflect.get(target, property, receiver) as unknown;
          },
        });
        return { collection, calls: () => calls };
      };

      const always = failing(Infinity);
      await expect(upgradeFromFormerIndexes(always.collection)).rejects.toThrow('Unknown error: null');
      expect(always.calls()).toBe(UPGRADE_UPDATE_ATTEMPTS);
      expect((await parcels.findOne({ _id: 'RETRY1' }))?.partnerKey).toBeUndefined();

      const twice = failing(UPGRADE_UPDATE_ATTEMPTS - 1);
      await expect(upgradeFromFormerIndexes(twice.collection)).resolves.toBeUndefined();
      expect(twice.calls()).toBe(UPGRADE_UPDATE_ATTEMPTS);
      expect((await parcels.findOne({ _id: 'RETRY1' }))?.partnerKey).toBe(pairKey('LMX', 'LMX-R'));
      expect((await parcels.listIndexes().toArray()).map((index) => index.name)).not.toContain('parcels_by_partner');
    }));

  it('documents stored before the retention sweep get its fields at the next start, erased ones none', () =>
    inOwnDatabase('parcel_projections_retention', async (client, formerDb) => {
      const views = formerRetentionViews();
      await formerParcels(client, formerDb).insert(views);
      const store = await createMongoProjectionStore({ url, dbName: formerDb });
      try {
        await expectFormerViewsDue(store, views);
      } finally {
        await store.close();
      }
    }));

  it('keeps one token per account when the same account asks twice at once', async () => {
    const store = await open();
    try {
      const clientId = `race-${randomUUID()}`;
      const records = Array.from({ length: 10 }, (_, i) => ({
        clientId,
        tokenHash: `${clientId}-${i}`,
        issuedAt: i,
        expiresAt: i + 1,
      }));
      await Promise.all(records.map((record) => store.tokens.put(record)));
      const found = await Promise.all(records.map((record) => store.tokens.findByHash(record.tokenHash)));
      expect(found.filter(Boolean)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('saves asked for at once go out in one bulk write; two saves of one parcel keep their order', async () => {
    const store = await open();
    const client = await new MongoClient(url).connect();
    try {
      const clientId = `grouped-${randomUUID()}`;
      const views = Array.from({ length: 3 }, (_, i) =>
        parcelView({ trackingNumber: `${clientId}-${i}`, clientId, revision: 0 }),
      );
      const again = { ...views[0]!, revision: 1, statusCode: 'LB_GN' };
      const written = await Promise.all([
        ...views.map((view) => store.parcels.save(view, -1)),
        store.parcels.save(again, 0),
      ]);
      expect(written).toEqual([true, true, true, true]);
      expect(await store.parcels.get(views[0]!.trackingNumber)).toMatchObject({ revision: 1, statusCode: 'LB_GN' });
      // A bulk write marks each document with its call's id and the entry's index; a lone save does not.
      const docs = await client
        .db(dbName)
        .collection<{ _id: string; writeMark?: string }>('parcels')
        .find({ _id: { $in: views.slice(1).map((v) => v.trackingNumber) } })
        .toArray();
      const calls = new Set(docs.map((doc) => doc.writeMark?.split('/')[0]));
      expect(docs).toHaveLength(2);
      expect(calls.size).toBe(1);
      expect([...calls][0]).toBeDefined();
    } finally {
      await client.close();
      await store.close();
    }
  });

  it('saves asked for in one turn, some microtasks apart, go out in one bulk write, the first included', async () => {
    const store = await open();
    const client = await new MongoClient(url).connect();
    try {
      const clientId = `one-turn-${randomUUID()}`;
      const views = Array.from({ length: 3 }, (_, i) =>
        parcelView({ trackingNumber: `${clientId}-${i}`, clientId, revision: 0 }),
      );
      // As the handlers of one fetched batch ask: in one turn of the event loop, not in one tick.
      const written = await Promise.all(
        views.map(async (view, i) => {
          for (let tick = 0; tick < i * 3; tick++) await Promise.resolve();
          return store.parcels.save(view, -1);
        }),
      );
      expect(written).toEqual([true, true, true]);
      const docs = await client
        .db(dbName)
        .collection<{ _id: string; writeMark?: string }>('parcels')
        .find({ _id: { $in: views.map((v) => v.trackingNumber) } })
        .toArray();
      expect(docs).toHaveLength(3);
      // One bulk write's mark on all three: a save that went out alone would carry none.
      expect(new Set(docs.map((doc) => doc.writeMark?.split('/')[0])).size).toBe(1);
      expect(docs.every((doc) => doc.writeMark !== undefined)).toBe(true);
    } finally {
      await client.close();
      await store.close();
    }
  });

  it('never stores a key it cannot match exactly (a lone surrogate)', async () => {
    const store = await open();
    try {
      const clientId = `client-${randomUUID()}`;
      await expect(
        store.parcels.save(parcelView({ trackingNumber: `PX\ud800${clientId}`, clientId }), -1),
      ).rejects.toThrow(TypeError);
      const view = parcelView({ trackingNumber: `PX-${clientId}`, clientId, customTrackingNum: 'REF\ufffd' });
      expect(await store.parcels.save(view, -1)).toBe(true);
      expect(await store.parcels.getByReference(clientId, 'REF\ud800')).toBeNull();
      expect(await store.parcels.getByReference(clientId, 'REF\ufffd')).toEqual(view);
    } finally {
      await store.close();
    }
  });

  it('never claims an Idempotency-Key it cannot match exactly (a lone surrogate)', async () => {
    const store = await open();
    try {
      const now = Date.now();
      const request = {
        clientId: `client-${randomUUID()}`,
        key: 'K\ufffd',
        fingerprint: 'f',
        owner: randomUUID(),
        now,
        lockedUntil: now + 1000,
        expiresAt: now + 2000,
      };
      await expect(store.idempotency.claim({ ...request, key: 'K\ud800' })).rejects.toThrow(TypeError);
      await expect(store.idempotency.claim({ ...request, owner: '\udc00' })).rejects.toThrow(TypeError);
      expect(await store.idempotency.claim(request)).toEqual({ claimed: true });
      expect(await store.idempotency.get(request.clientId, 'K\ud800')).toBeNull();
      expect(
        await store.idempotency.complete(request.clientId, 'K\ud800', request.owner, { status: 200, body: '' }),
      ).toBe(false);
      expect(await store.idempotency.get(request.clientId, request.key)).toMatchObject({
        key: 'K\ufffd',
        state: 'pending',
      });
    } finally {
      await store.close();
    }
  });

  it('answers 1000 tracking numbers among 20 000 parcels', async () => {
    const store = await open();
    try {
      const prefix = `PERF${randomUUID().slice(0, 8)}-`;
      for (let i = 0; i < 20_000; i += 500) {
        const batch = Array.from({ length: 500 }, (_, j) => i + j);
        await Promise.all(
          batch.map((n) =>
            store.parcels.save(
              parcelView({ trackingNumber: `${prefix}${n}`, clientId: n % 2 === 0 ? `${prefix}even` : `${prefix}odd` }),
              -1,
            ),
          ),
        );
      }
      const numbers = Array.from({ length: 1000 }, (_, i) => `${prefix}${i * 7}`);
      const timings: number[] = [];
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        const found = await store.parcels.getManyForClient(`${prefix}even`, numbers);
        timings.push(performance.now() - started);
        expect(found.size).toBe(500);
      }
      const median = timings.sort((a, b) => a - b)[2]!;
      console.log(
        `mongo getManyForClient: 1000 numbers among 20 000 parcels, median of 5 runs ${median.toFixed(1)} ms`,
      );
      expect(median).toBeLessThan(1000);
    } finally {
      await store.close();
    }
  }, 120_000);

  describe('the first connection', () => {
    /** A loopback port that nothing listens on (yet). */
    async function freePort(): Promise<number> {
      const probe = createServer().listen(0, '127.0.0.1');
      await once(probe, 'listening');
      const { port } = probe.address() as AddressInfo;
      probe.close();
      await once(probe, 'close');
      return port;
    }
    const quickUrl = (port: number) => `mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=300`;

    it('goes on trying while no server answers, and opens the store once one does', async () => {
      const port = await freePort();
      const server = new URL(url);
      const sockets: Socket[] = [];
      // The server "starts" after the second failed try: a proxy to the real one, on the port tried.
      const proxy = createServer((inbound) => {
        const outbound = connect(Number(server.port || 27017), server.hostname);
        sockets.push(inbound, outbound);
        inbound.pipe(outbound).pipe(inbound);
        inbound.on('error', () => outbound.destroy());
        outbound.on('error', () => inbound.destroy());
      });
      const retries: number[] = [];
      const opening = createMongoProjectionStore({
        url: quickUrl(port),
        dbName,
        connectWithinMs: 30_000,
        onConnectRetry: (error, attempt) => {
          expect(error).toBeInstanceOf(MongoServerSelectionError);
          retries.push(attempt);
          if (attempt === 2) proxy.listen(port, '127.0.0.1');
        },
      });
      try {
        const store = await opening;
        await store.ping();
        await store.close();
        // Two tries failed before the proxy listened; the store's connection went through it.
        expect(retries.slice(0, 2)).toEqual([1, 2]);
        expect(sockets.length).toBeGreaterThan(0);
      } finally {
        for (const socket of sockets) socket.destroy();
        proxy.close();
      }
    });

    it("gives up with the driver's error once its time is over, and at once when none is given", async () => {
      const port = await freePort();
      const retries: number[] = [];
      await expect(
        createMongoProjectionStore({
          url: quickUrl(port),
          dbName,
          connectWithinMs: 2_000,
          onConnectRetry: (_error, attempt) => retries.push(attempt),
        }),
      ).rejects.toBeInstanceOf(MongoServerSelectionError);
      // About 0.3 s a try, then a pause of 0.25 s, doubled each time: a few tries in 2 s.
      expect(retries.length).toBeGreaterThan(0);
      expect(retries).toEqual(retries.map((_attempt, index) => index + 1));
      const tried: number[] = [];
      await expect(
        createMongoProjectionStore({
          url: quickUrl(port),
          dbName,
          onConnectRetry: (_e, attempt) => tried.push(attempt),
        }),
      ).rejects.toBeInstanceOf(MongoServerSelectionError);
      expect(tried).toEqual([]);
    });
  });
});
