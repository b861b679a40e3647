/** The parcels and tokens collections of the MongoDB projection store: documents, indexes, and the upgrade of former ones. */
import { MongoServerError, type Collection, type IndexDescription } from 'mongodb';
import { erasureClocksOf, type StoredParcelView } from '@parcel-logistics/contracts';
import { duplicateIndex, pairKey } from './mongoKeys.ts';

export interface ParcelDocument {
  _id: string;
  clientId: string;
  customTrackingNum: string;
  revision: number;
  carrier: string;
  partnerTrackingNo: string;
  /** `carrier` and `partnerTrackingNo` as one key, absent while the parcel has no partner number. */
  partnerKey?: string;
  view: StoredParcelView;
  /**
   * The retention sweep's fields (`erasureClocksOf`, epoch ms): the creation and the final status
   * of a parcel that still holds personal data, absent once it is erased (and the final one before
   * a final status), so that their sparse indexes hold only the parcels that may still fall due.
   */
  retentionCreatedMs?: number;
  retentionFinalMs?: number;
  /** Set by `saveMany`: which of its writes last wrote this document. */
  writeMark?: string;
}

export interface TokenDocument {
  _id: string;
  tokenHash: string;
  issuedAt: number;
  expiresAt: number;
}

/** Named where a duplicate-key error on it is told apart from one on `_id`. */
export const partnerKeyIndex = 'parcels_by_partner_key';

export const parcelIndexes: IndexDescription[] = [
  // One parcel per (account, reference): the event store's reference claim already guarantees it.
  { key: { clientId: 1, customTrackingNum: 1 }, name: 'parcels_by_account_reference', unique: true },
  // Partner numbers come from carriers: a number a carrier gives twice stays with the first parcel
  // that carried it (see save), so a carrier's mistake can never stop a view from being saved.
  { key: { partnerKey: 1 }, name: partnerKeyIndex, unique: true, sparse: true },
  // Unique because _id is: the revision compare-and-set and the account-checked read.
  { key: { _id: 1, revision: 1 }, name: 'parcels_by_id_revision', unique: true },
  { key: { _id: 1, clientId: 1 }, name: 'parcels_by_id_client', unique: true },
  // The retention sweep's range queries (real MongoDB serves each half of its $or from one of them;
  // mongo-java-server tests every parcel, once per sweep).
  { key: { retentionCreatedMs: 1 }, name: 'parcels_by_retention_created', sparse: true },
  { key: { retentionFinalMs: 1 }, name: 'parcels_by_retention_final', sparse: true },
];

/** The retention fields of a view: those to set, and those to remove. */
export function retentionFields(view: StoredParcelView): {
  set: Pick<ParcelDocument, 'retentionCreatedMs' | 'retentionFinalMs'>;
  unset: ('retentionCreatedMs' | 'retentionFinalMs')[];
} {
  const clocks = erasureClocksOf(view);
  if (!clocks) return { set: {}, unset: ['retentionCreatedMs', 'retentionFinalMs'] };
  if (clocks.finalMs === null) return { set: { retentionCreatedMs: clocks.createdMs }, unset: ['retentionFinalMs'] };
  return { set: { retentionCreatedMs: clocks.createdMs, retentionFinalMs: clocks.finalMs }, unset: [] };
}

/**
 * Documents stored before the retention sweep existed get its fields from their views: those that
 * have none and are not erased. Run at every start (a start that died half-way is finished by the
 * next); each update is conditional on the revision read, so a concurrent save wins.
 */
export async function upgradeToRetention(parcels: Collection<ParcelDocument>): Promise<void> {
  const former = parcels.find(
    { retentionCreatedMs: { $exists: false }, 'view.personalDataErased': { $ne: true } },
    { projection: { revision: 1, view: 1 } },
  );
  for await (const doc of former) {
    const { set } = retentionFields(doc.view);
    if (set.retentionCreatedMs !== undefined)
      await againOnServerError(() => parcels.updateOne({ _id: doc._id, revision: doc.revision }, { $set: set }));
  }
}

/** How often an upgrade's update is tried before its error is the start's. */
export const UPGRADE_UPDATE_ATTEMPTS = 3;

/**
 * One update of an upgrade, idempotent, tried again when the server fails it with an error of its
 * own. Starts may run at once, and mongo-java-server's index catalogue is not atomic: an update made
 * while another start creates or drops an index now and then fails there ("Unknown error: null",
 * seen once in a CI run), which MongoDB never does. A duplicate key is an answer, not such an error.
 */
async function againOnServerError<T>(update: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await update();
    } catch (error) {
      const transient = error instanceof MongoServerError && duplicateIndex(error) === undefined;
      if (!transient || attempt >= UPGRADE_UPDATE_ATTEMPTS) throw error;
    }
  }
}

/** Indexes of earlier versions, which mongo-java-server never used (not unique). */
const formerIndexes = { reference: 'parcels_by_reference', partner: 'parcels_by_partner' };

/**
 * A collection of an earlier version: its parcels get their partner key, then the former indexes
 * go. Several processes may start at once; each step is idempotent, and the former partner index
 * is dropped last, so while it exists a later start finishes the work.
 */
export async function upgradeFromFormerIndexes(parcels: Collection<ParcelDocument>): Promise<void> {
  const names = new Set((await parcels.listIndexes().toArray()).map((index) => String(index.name)));
  if (names.has(formerIndexes.partner)) {
    const registered = parcels.find(
      { partnerTrackingNo: { $ne: '' }, partnerKey: { $exists: false } },
      { projection: { carrier: 1, partnerTrackingNo: 1 } },
    );
    for await (const doc of registered) {
      await againOnServerError(() =>
        parcels.updateOne(
          { _id: doc._id, partnerTrackingNo: doc.partnerTrackingNo, carrier: doc.carrier },
          { $set: { partnerKey: pairKey(doc.carrier, doc.partnerTrackingNo) } },
        ),
      ).catch((error: unknown) => {
        // Another parcel carries that number already: this one keeps no key, as save does.
        if (duplicateIndex(error) !== partnerKeyIndex) throw error;
      });
    }
  }
  for (const name of [formerIndexes.reference, formerIndexes.partner]) {
    if (names.has(name))
      await parcels.dropIndex(name).catch(async (error: unknown) => {
        // Dropped by a process that started at the same time: MongoDB answers IndexNotFound, and
        // mongo-java-server, whose index catalogue is not atomic, may fail with an error of its own.
        // Either way the index is gone, which is what was wanted. If the list cannot say so, the
        // drop's own error is the one to report.
        if (error instanceof MongoServerError && error.codeName === 'IndexNotFound') return;
        const left = await parcels
          .listIndexes()
          .toArray()
          .catch(() => undefined);
        if (!left || left.some((index) => index.name === name)) throw error;
      });
  }
}
