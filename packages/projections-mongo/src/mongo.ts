/**
 * Projection store on MongoDB (the distributed wiring), through the official `mongodb` driver.
 *
 * parcels: `_id` = tracking number, the queried fields at the top level, the view in `view`;
 *          `partnerKey` (carrier and partner number) only once the carrier has given a number.
 * tokens:  `_id` = clientId, one current token per account.
 * idempotency: `_id` = the pair (clientId, key), see `mongoIdempotency.ts`.
 *
 * mongo-java-server serves a filter from an index only when the index is unique and has exactly
 * the filter's fields; any other filter tests every parcel (about 30 ms for one lookup among 40 000).
 * So every lookup here has such an index: see `parcelIndexes` (mongoParcels.ts).
 *
 * Every filter value is a string the caller passed, never parsed JSON, and every key is fixed
 * here: a client's text is always data, never a field name or an operator. No transactions
 * (mongo-java-server has none): save is a single-document compare-and-set on `revision`.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as endOfTurn, setTimeout as sleep } from 'node:timers/promises';
import {
  MongoBulkWriteError,
  MongoClient,
  MongoNetworkError,
  MongoServerSelectionError,
  type AnyBulkWriteOperation,
  type BulkWriteResult,
  type Collection,
} from 'mongodb';
import { publicTrackingOf, type StoredParcelView } from '@parcel-logistics/contracts';
import type { ProjectionCheckpoints, ProjectionStore, TokenRecord } from '@parcel-logistics/projections';
import { createMongoIdempotencyStore, idempotencyIndexes, type IdempotencyDocument } from './mongoIdempotency.ts';
import { duplicateIndex, duplicateIndexIn, isKey, pairKey } from './mongoKeys.ts';
import { createMongoManifestStore, manifestIndexes, type ManifestDocument } from './mongoManifests.ts';
import {
  parcelIndexes,
  partnerKeyIndex,
  retentionFields,
  upgradeFromFormerIndexes,
  upgradeToRetention,
  type ParcelDocument,
  type TokenDocument,
} from './mongoParcels.ts';

export interface MongoProjectionStoreOptions {
  /** Connection string; driver options such as `serverSelectionTimeoutMS` go in its query. */
  url: string;
  dbName: string;
  /**
   * How long the first connection may go on trying while no server answers: one starting, or one
   * too busy to answer within `serverSelectionTimeoutMS`. Unset, it is tried once.
   */
  connectWithinMs?: number;
  /** Told of each try that failed and will be tried again. */
  onConnectRetry?: (error: unknown, attempt: number) => void;
}

/** The pause before the next try of the first connection: 0.25 s, doubled each time, at most 2 s. */
const connectPause = (attempt: number) => Math.min(250 * 2 ** (attempt - 1), 2000);

/** A connected client; an unreachable server is tried again until `connectWithinMs` has passed. */
async function connectClient(options: MongoProjectionStoreOptions): Promise<MongoClient> {
  const giveUpAt = Date.now() + (options.connectWithinMs ?? 0);
  for (let attempt = 1; ; attempt++) {
    // ignoreUndefined: an absent optional field stays absent instead of coming back as null.
    const client = new MongoClient(options.url, { ignoreUndefined: true });
    try {
      return await client.connect();
    } catch (error) {
      await client.close().catch(() => undefined);
      const unreachable = error instanceof MongoServerSelectionError || error instanceof MongoNetworkError;
      const pause = connectPause(attempt);
      if (!unreachable || Date.now() + pause >= giveUpAt) throw error;
      options.onConnectRetry?.(error, attempt);
      await sleep(pause);
    }
  }
}

const viewOf = (doc: Pick<ParcelDocument, 'view'> | null): StoredParcelView | null => doc?.view ?? null;
const onlyView = { projection: { _id: 0, view: 1 } } as const;

export async function createMongoProjectionStore(options: MongoProjectionStoreOptions): Promise<ProjectionStore> {
  const client = await connectClient(options);
  const db = client.db(options.dbName);
  const parcels: Collection<ParcelDocument> = db.collection('parcels');
  const tokens: Collection<TokenDocument> = db.collection('tokens');
  const idempotency: Collection<IdempotencyDocument> = db.collection('idempotency');
  const manifests: Collection<ManifestDocument> = db.collection('manifests');
  const checkpoints: Collection<{ _id: string; position: number }> = db.collection('checkpoints');
  try {
    // Same names and keys on every start, so a second start is a no-op.
    await parcels.createIndexes(parcelIndexes);
    await tokens.createIndex({ tokenHash: 1 }, { name: 'tokens_by_hash', unique: true });
    await idempotency.createIndexes(idempotencyIndexes);
    await manifests.createIndexes(manifestIndexes);
    await upgradeFromFormerIndexes(parcels);
    await upgradeToRetention(parcels);
  } catch (error) {
    await client.close();
    throw error;
  }

  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('projection store is closed');
  };

  /** The document or the update that stores `view`; `withPartner` false leaves out its partner key. */
  const parcelWrite = (view: StoredParcelView, withPartner: boolean) => {
    const { trackingNumber, clientId, customTrackingNum, revision, carrier, partnerTrackingNo } = view;
    const keys = [trackingNumber, clientId, customTrackingNum, carrier, partnerTrackingNo];
    if (!keys.every(isKey))
      throw new TypeError(`parcel ${JSON.stringify(trackingNumber)}: a key field cannot be stored exactly`);
    const retention = retentionFields(view);
    const fields = { clientId, customTrackingNum, revision, carrier, partnerTrackingNo, view, ...retention.set };
    const partnerKey = withPartner && partnerTrackingNo !== '' ? pairKey(carrier, partnerTrackingNo) : undefined;
    const unset = [...retention.unset, ...(partnerKey ? [] : ['partnerKey' as const])];
    return {
      insert: { _id: trackingNumber, ...fields, ...(partnerKey ? { partnerKey } : {}) } as ParcelDocument,
      update: {
        $set: { ...fields, ...(partnerKey ? { partnerKey } : {}) },
        ...(unset.length > 0 ? { $unset: Object.fromEntries(unset.map((field) => [field, '' as const])) } : {}),
      },
    };
  };

  async function saveOne(view: StoredParcelView, expectedRevision: number): Promise<boolean> {
    open();
    // withPartner false: the number is another parcel's already, and this view is saved without the key.
    const write = async (withPartner: boolean): Promise<boolean> => {
      const { insert, update } = parcelWrite(view, withPartner);
      if (expectedRevision === -1) {
        await parcels.insertOne(insert);
        return true;
      }
      const { matchedCount } = await parcels.updateOne(
        { _id: view.trackingNumber, revision: expectedRevision },
        update,
      );
      return matchedCount === 1;
    };
    try {
      return await write(true);
    } catch (error) {
      const index = duplicateIndex(error);
      if (index === '_id_') return false;
      if (index === partnerKeyIndex) return write(false);
      throw error;
    }
  }

  async function saveMany(
    entries: readonly { view: StoredParcelView; expectedRevision: number }[],
  ): Promise<boolean[]> {
    open();
    if (entries.length < 2)
      return Promise.all(entries.map(({ view, expectedRevision }) => saveOne(view, expectedRevision)));
    // Each write marks its document, so should fewer match than were sent, a read tells which.
    const call = randomUUID();
    const mark = (i: number) => `${call}/${i}`;
    const ops = entries.map(({ view, expectedRevision }, i): AnyBulkWriteOperation<ParcelDocument> => {
      const write = parcelWrite(view, true);
      return expectedRevision === -1
        ? { insertOne: { document: { ...write.insert, writeMark: mark(i) } } }
        : {
            updateOne: {
              filter: { _id: view.trackingNumber, revision: expectedRevision },
              update: { ...write.update, $set: { ...write.update.$set, writeMark: mark(i) } },
            },
          };
    });
    const refused = new Map<number, string | undefined>();
    let result: BulkWriteResult;
    try {
      result = await parcels.bulkWrite(ops, { ordered: false });
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      for (const e of [error.writeErrors].flat()) {
        const index = duplicateIndexIn(e.code, e.errmsg ?? '');
        if (index !== '_id_' && index !== partnerKeyIndex) throw error;
        refused.set(e.index, index);
      }
      result = error.result;
    }
    const written = entries.map((_, i) => !refused.has(i));
    const sentUpdates = entries.flatMap((e, i) => (e.expectedRevision !== -1 && !refused.has(i) ? [i] : []));
    if (result.matchedCount < sentUpdates.length) {
      const marks = await parcels
        .find(
          { _id: { $in: sentUpdates.map((i) => entries[i]!.view.trackingNumber) } },
          { projection: { writeMark: 1 }, batchSize: sentUpdates.length },
        )
        .toArray();
      const found = new Set(marks.map((doc) => doc.writeMark));
      for (const i of sentUpdates) written[i] = found.has(mark(i));
    }
    // Another parcel holds the partner number already: saved the careful way, without the key.
    for (const [i, index] of refused) {
      if (index === partnerKeyIndex) written[i] = await saveOne(entries[i]!.view, entries[i]!.expectedRevision);
    }
    return written;
  }

  /**
   * A save asked for while another is being written waits and goes out with the others asked for
   * meanwhile, in one bulk write (`saveMany`): under load the inline projections of one commit group
   * cost one MongoDB request instead of one each. A save asked for alone goes out at the end of its
   * turn of the event loop, with those asked for in the same turn. Two saves of one parcel never
   * share a write (an unordered bulk write could run the second first): the later one waits for
   * the next.
   */
  let waiting: { view: StoredParcelView; expectedRevision: number; done: PromiseWithResolvers<boolean> }[] = [];
  let writing = false;
  async function writeWaiting(): Promise<void> {
    writing = true;
    try {
      // The saves asked for in this turn of the event loop join the first write.
      await endOfTurn();
      while (waiting.length > 0) {
        const parcelsInGroup = new Set<string>();
        const group: typeof waiting = [];
        const later: typeof waiting = [];
        for (const entry of waiting) {
          const key = entry.view.trackingNumber;
          if (parcelsInGroup.has(key)) later.push(entry);
          else {
            parcelsInGroup.add(key);
            group.push(entry);
          }
        }
        waiting = later;
        try {
          const written = await saveMany(group);
          group.forEach(({ done }, i) => done.resolve(written[i]!));
        } catch (error) {
          for (const { done } of group) done.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  }
  async function saveGrouped(view: StoredParcelView, expectedRevision: number): Promise<boolean> {
    open();
    const done = Promise.withResolvers<boolean>();
    waiting.push({ view, expectedRevision, done });
    if (!writing) void writeWaiting();
    return done.promise;
  }

  const projectionCheckpoints: ProjectionCheckpoints = {
    async load(subscriptionId) {
      open();
      return (await checkpoints.findOne({ _id: subscriptionId }))?.position;
    },
    async save(subscriptionId, position) {
      open();
      // Journaled: what was written before it reaches the disk with it.
      await checkpoints.updateOne(
        { _id: subscriptionId },
        { $set: { position } },
        { upsert: true, writeConcern: { j: true } },
      );
    },
  };
  return {
    parcels: {
      async get(trackingNumber) {
        open();
        if (!isKey(trackingNumber)) return null;
        return viewOf(await parcels.findOne({ _id: trackingNumber }, onlyView));
      },
      async getForClient(clientId, trackingNumber) {
        open();
        if (!isKey(clientId) || !isKey(trackingNumber)) return null;
        return viewOf(await parcels.findOne({ _id: trackingNumber, clientId }, onlyView));
      },
      async getPublicTracking(trackingNumber) {
        open();
        if (!isKey(trackingNumber)) return null;
        const view = viewOf(await parcels.findOne({ _id: trackingNumber }, onlyView));
        return view ? publicTrackingOf(view) : null;
      },
      async getManyForClient(clientId, trackingNumbers) {
        open();
        const numbers = [...new Set(trackingNumbers)].filter(isKey);
        if (!isKey(clientId) || numbers.length === 0) return new Map();
        // Filtered by `_id` alone, the account checked here: mongo-java-server uses an index only when
        // the filter's fields are exactly the index's, and otherwise tests every parcel against every
        // number (2.4 s instead of 0.12 s for 1000 numbers among 20 000 parcels). Real MongoDB would
        // answer `{_id: {$in}, clientId}` from the `_id` index as well.
        const docs = await parcels
          .find({ _id: { $in: numbers } }, { projection: { clientId: 1, view: 1 }, batchSize: numbers.length })
          .toArray();
        return new Map(docs.filter((doc) => doc.clientId === clientId).map((doc) => [doc._id, doc.view]));
      },
      async revisions(trackingNumbers) {
        open();
        const numbers = [...new Set(trackingNumbers)].filter(isKey);
        if (numbers.length === 0) return new Map();
        const docs = await parcels
          .find({ _id: { $in: numbers } }, { projection: { revision: 1 }, batchSize: numbers.length })
          .toArray();
        return new Map(docs.map((doc) => [doc._id, doc.revision]));
      },
      async getByReference(clientId, customTrackingNum) {
        open();
        if (!isKey(clientId) || !isKey(customTrackingNum)) return null;
        return viewOf(await parcels.findOne({ clientId, customTrackingNum }, onlyView));
      },
      async getByPartnerTrackingNo(carrier, partnerTrackingNo) {
        open();
        // '' is "not registered with the carrier yet", never a partner number.
        if (!isKey(carrier) || !isKey(partnerTrackingNo) || partnerTrackingNo === '') return null;
        return viewOf(await parcels.findOne({ partnerKey: pairKey(carrier, partnerTrackingNo) }, onlyView));
      },
      async dueForErasure({ createdBefore, finalBefore, limit, clients }) {
        open();
        if (limit < 1) return []; // a limit of 0 is none at all to MongoDB
        const docs = await parcels
          .find(
            {
              $or: [
                { retentionCreatedMs: { $lte: createdBefore.getTime() } },
                { retentionFinalMs: { $lte: finalBefore.getTime() } },
              ],
              ...(clients
                ? { clientId: 'only' in clients ? { $in: [...clients.only] } : { $nin: [...clients.except] } }
                : {}),
            },
            { projection: { _id: 1 }, limit, batchSize: limit },
          )
          .toArray();
        return docs.map((doc) => doc._id);
      },
      async openForManifest(clientId, carrier, limit) {
        open();
        if (!isKey(clientId) || !isKey(carrier) || limit < 1) return [];
        const docs = await parcels
          .find(
            {
              clientId,
              carrier,
              partnerTrackingNo: { $ne: '' },
              'view.status': 'active',
              'view.manifestId': { $exists: false },
            },
            { projection: { view: 1 }, sort: { 'view.createdAt': 1, _id: 1 }, limit, batchSize: limit },
          )
          .toArray();
        return docs.map((doc) => doc.view);
      },
      save: saveGrouped,
      saveMany,
      checkpoints: projectionCheckpoints,
    },
    tokens: {
      async put({ clientId, tokenHash, issuedAt, expiresAt }) {
        open();
        if (!isKey(clientId) || !isKey(tokenHash))
          throw new TypeError('token: clientId and tokenHash must be well-formed strings');
        // One document per account, replaced whole: the older hash is gone in the same write.
        await tokens.replaceOne({ _id: clientId }, { tokenHash, issuedAt, expiresAt }, { upsert: true });
      },
      async findByHash(tokenHash) {
        open();
        if (!isKey(tokenHash)) return null;
        const doc = await tokens.findOne({ tokenHash });
        if (!doc) return null;
        const record: TokenRecord = {
          clientId: doc._id,
          tokenHash: doc.tokenHash,
          issuedAt: doc.issuedAt,
          expiresAt: doc.expiresAt,
        };
        return record;
      },
    },
    idempotency: createMongoIdempotencyStore(idempotency, open),
    manifests: { ...createMongoManifestStore(manifests, open), checkpoints: projectionCheckpoints },
    // MongoDB overwrites a document in place and leaves its old bytes to the storage engine's own
    // reuse, its journal and the oplog; nothing a client can do here (docs/personal-data.md).
    async shred() {
      open();
    },
    async ping() {
      open();
      // `ping` is answered by mongo-java-server too (it lacks `hello`).
      await db.command({ ping: 1 });
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
