/**
 * The Idempotency-Key records of the Mongo projection store: `_id` = the pair (clientId, key),
 * the record's fields beside it.
 *
 * Every write after a claim's insert is a compare-and-set on `{_id, owner, state}`: owners are
 * unique per request, so the pair names one version of the record, and an index with exactly
 * those fields serves it on mongo-java-server (a filter with the takeover condition itself, a
 * `$or` of ranges, would test every record there).
 */
import type { Collection, IndexDescription } from 'mongodb';
import type { IdempotencyClaimRequest, IdempotencyRecord, IdempotencyStore } from '@parcel-logistics/projections';
import { duplicateIndex, isKey, pairKey } from './mongoKeys.ts';

export interface IdempotencyDocument extends IdempotencyRecord {
  _id: string;
  /** `expiresAt` as a date, for MongoDB's TTL monitor (see `idempotencyIndexes`). */
  expireAt: Date;
  /** The tracking numbers the done answer concerns (`complete`), absent when none: `forgetParcels` deletes by them. */
  parcels?: string[];
}

/**
 * The TTL index lets MongoDB drop expired records by itself (`expireAfterSeconds: 0`: once past
 * `expireAt`); mongo-java-server ignores it. No query relies on it: each judges `expiresAt` itself.
 */
export const idempotencyIndexes: IndexDescription[] = [
  // Unique because _id is: the compare-and-set of complete, release and a claim's takeover.
  { key: { _id: 1, owner: 1, state: 1 }, name: 'idempotency_by_id_owner_state', unique: true },
  { key: { expireAt: 1 }, name: 'idempotency_ttl', expireAfterSeconds: 0 },
  // forgetParcels on MongoDB (multikey, only the records that name parcels); mongo-java-server scans instead.
  { key: { parcels: 1 }, name: 'idempotency_by_parcel', sparse: true },
];

/** Whether a claim made at `now` may overwrite the stored record (the rule of `IdempotencyStore.claim`). */
const claimable = (record: IdempotencyRecord, { fingerprint, now }: IdempotencyClaimRequest): boolean =>
  record.expiresAt <= now ||
  (record.state === 'pending' && record.fingerprint === fingerprint && record.lockedUntil <= now);

const recordOf = ({ _id, expireAt: _expireAt, parcels: _parcels, ...record }: IdempotencyDocument): IdempotencyRecord =>
  record;

export function createMongoIdempotencyStore(
  records: Collection<IdempotencyDocument>,
  open: () => void,
): IdempotencyStore {
  return {
    /**
     * Insert; on a duplicate `_id`, read the record and, when the claim may overwrite it, replace
     * exactly the version read. When that version changed or vanished in between, start over.
     */
    async claim(request) {
      open();
      const { clientId, key, fingerprint, owner, now, lockedUntil, expiresAt } = request;
      if (![clientId, key, fingerprint, owner].every(isKey)) {
        throw new TypeError('idempotency claim: clientId, key, fingerprint and owner must be well-formed strings');
      }
      const _id = pairKey(clientId, key);
      const record: IdempotencyRecord = {
        clientId,
        key,
        fingerprint,
        state: 'pending',
        owner,
        lockedUntil,
        createdAt: now,
        expiresAt,
      };
      const doc: IdempotencyDocument = { _id, ...record, expireAt: new Date(expiresAt) };
      for (;;) {
        try {
          await records.insertOne(doc);
          return { claimed: true };
        } catch (error) {
          if (duplicateIndex(error) !== '_id_') throw error;
        }
        const live = await records.findOne({ _id });
        if (live && !claimable(live, request)) return { claimed: false, record: recordOf(live) };
        if (live && (await records.replaceOne({ _id, owner: live.owner, state: live.state }, doc)).matchedCount === 1) {
          return { claimed: true };
        }
      }
    },
    async complete(clientId, key, owner, { status, body }, parcels = []) {
      open();
      if (![clientId, key, owner].every(isKey)) return false;
      // A number BSON cannot store exactly names no parcel (tracking numbers are ASCII): nothing to forget by it.
      const named = [...new Set(parcels)].filter(isKey);
      const { matchedCount } = await records.updateOne(
        { _id: pairKey(clientId, key), owner, state: 'pending' },
        { $set: { state: 'done', answer: { status, body }, ...(named.length > 0 ? { parcels: named } : {}) } },
      );
      return matchedCount === 1;
    },
    async release(clientId, key, owner) {
      open();
      if (![clientId, key, owner].every(isKey)) return;
      await records.deleteOne({ _id: pairKey(clientId, key), owner, state: 'pending' });
    },
    async get(clientId, key) {
      open();
      if (!isKey(clientId) || !isKey(key)) return null;
      const doc = await records.findOne({ _id: pairKey(clientId, key) });
      return doc ? recordOf(doc) : null;
    },
    async purgeExpired(now) {
      open();
      return (await records.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
    async forgetParcels(trackingNumbers) {
      open();
      const wanted = [...new Set(trackingNumbers)].filter(isKey);
      if (wanted.length === 0) return 0;
      return (await records.deleteMany({ parcels: { $in: wanted } })).deletedCount;
    },
  };
}
