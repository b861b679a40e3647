/**
 * The manifests collection of the MongoDB projection store: `_id` = manifest id, the queried
 * fields at the top level, the manifest in `manifest`. Written once (insert; a duplicate id keeps
 * the first), never changed.
 */
import { MongoServerError, type Collection, type Filter, type IndexDescription } from 'mongodb';
import type { StoredManifest } from '@parcel-logistics/contracts';
import type { ManifestStore } from '@parcel-logistics/projections';
import { isKey } from './mongoKeys.ts';

export interface ManifestDocument {
  _id: string;
  clientId: string;
  carrier: string;
  createdMs: number;
  manifest: StoredManifest;
}

export const manifestIndexes: IndexDescription[] = [
  { key: { _id: 1, clientId: 1 }, name: 'manifests_by_id_client', unique: true },
  { key: { clientId: 1, createdMs: -1, _id: -1 }, name: 'manifests_by_account' },
];

const DUPLICATE_KEY = 11000;

export function createMongoManifestStore(
  manifests: Collection<ManifestDocument>,
  open: () => void,
): Omit<ManifestStore, 'checkpoints'> {
  return {
    async put(manifest) {
      open();
      const { manifestId, clientId, carrier, createdMs } = manifest;
      if (![manifestId, clientId, carrier].every(isKey))
        throw new TypeError(`manifest ${JSON.stringify(manifestId)}: a key field cannot be stored exactly`);
      await manifests.insertOne({ _id: manifestId, clientId, carrier, createdMs, manifest }).catch((error: unknown) => {
        // Stored before: a manifest never changes.
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      });
    },
    async getForClient(clientId, manifestId) {
      open();
      if (!isKey(clientId) || !isKey(manifestId)) return null;
      const doc = await manifests.findOne({ _id: manifestId, clientId }, { projection: { manifest: 1 } });
      return doc?.manifest ?? null;
    },
    async listForClient(clientId, { limit, carrier, before }) {
      open();
      if (!isKey(clientId) || (carrier !== undefined && !isKey(carrier)) || limit < 1) return [];
      const filter: Filter<ManifestDocument> = { clientId, ...(carrier !== undefined ? { carrier } : {}) };
      if (before !== undefined) {
        if (!isKey(before)) return [];
        const cursor = await manifests.findOne({ _id: before, clientId }, { projection: { createdMs: 1 } });
        if (!cursor) return [];
        filter.$or = [
          { createdMs: { $lt: cursor.createdMs } },
          { createdMs: cursor.createdMs, _id: { $lt: cursor._id } },
        ];
      }
      const docs = await manifests
        .find(filter, { projection: { manifest: 1 }, sort: { createdMs: -1, _id: -1 }, limit, batchSize: limit })
        .toArray();
      return docs.map((doc) => doc.manifest);
    },
  };
}
