/** Projection stores: read models the query endpoints read. Every client-facing read is filtered by account. */
import type { PublicTracking, StoredManifest, StoredParcelView } from '@parcel-logistics/contracts';
import type { CheckpointStore } from '@parcel-logistics/eventstore';

export interface ParcelViewStore {
  /** Internal read, not filtered by account (projectors only). */
  get(trackingNumber: string): Promise<StoredParcelView | null>;
  /** The parcel when it belongs to `clientId`, else null: another account's parcel reads as missing. */
  getForClient(clientId: string, trackingNumber: string): Promise<StoredParcelView | null>;
  /** The account's parcels among `trackingNumbers` (duplicates allowed), keyed by tracking number. */
  getManyForClient(clientId: string, trackingNumbers: readonly string[]): Promise<Map<string, StoredParcelView>>;
  /**
   * The one read without an account, for the public tracking page: only what that page may show
   * (`publicTrackingOf`), null for an unknown parcel and for one with nothing to show alike.
   */
  getPublicTracking(trackingNumber: string): Promise<PublicTracking | null>;
  /**
   * Internal read for projectors: the stored revision of each view among `trackingNumbers` that
   * exists (duplicates allowed), in one round trip, so a catch-up projector can skip the events
   * its views already hold without reading each view.
   */
  revisions(trackingNumbers: readonly string[]): Promise<Map<string, number>>;
  getByReference(clientId: string, customTrackingNum: string): Promise<StoredParcelView | null>;
  /** Internal read for carrier callbacks: the parcel a carrier knows by its own number. */
  getByPartnerTrackingNo(carrier: string, partnerTrackingNo: string): Promise<StoredParcelView | null>;
  /**
   * Internal read for the retention sweep: up to `limit` tracking numbers of parcels whose personal
   * data is not erased yet and which were created at or before `createdBefore`, or reached their
   * final status at or before `finalBefore` (`erasureClocksOf`), in no particular order. The sweep
   * pages by erasing: an erased view is due no more, so the next call answers the next ones.
   */
  dueForErasure(query: ErasureDueQuery): Promise<string[]>;
  /**
   * Create-manifest's candidates: up to `limit` of the account's parcels of `carrier` that are not
   * cancelled, carry the carrier's number and are on no manifest yet, oldest first (by creation,
   * then tracking number). The parcel decider has the last word on each.
   */
  openForManifest(clientId: string, carrier: string, limit: number): Promise<StoredParcelView[]>;
  /**
   * Compare-and-set on the stream revision: writes only when the stored view's revision equals
   * `expectedRevision` (-1: no stored view). Returns false, writing nothing, otherwise.
   */
  save(view: StoredParcelView, expectedRevision: number): Promise<boolean>;
  /**
   * `save` of several views of distinct parcels in one round trip, each its own compare-and-set
   * (not all or nothing): true for each view written, in the order given.
   */
  saveMany(entries: readonly ViewToSave[]): Promise<boolean[]>;
  /** The checkpoint of the subscription that keeps these views (`ProjectionCheckpoints`). */
  checkpoints: ProjectionCheckpoints;
}

/**
 * The checkpoints of the subscriptions that write to a projection store (`SubscriptionSettings.checkpoints`),
 * kept in that store, one set for all its parts: a save is written after everything written there
 * before it, so a crash of the machine that loses the last writes takes the checkpoint back too and
 * their events come again, where a checkpoint in the event store would have passed them.
 */
export type ProjectionCheckpoints = CheckpointStore;

export interface ErasureDueQuery {
  createdBefore: Date;
  finalBefore: Date;
  limit: number;
  /** Only the parcels of these clients, or all but theirs (the accounts with a retention of their own). */
  clients?: { only: readonly string[] } | { except: readonly string[] };
}

export interface ViewToSave {
  view: StoredParcelView;
  expectedRevision: number;
}

export interface TokenRecord {
  clientId: string;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  tokenHash: string;
  issuedAt: number;
  expiresAt: number;
}

export interface TokenStore {
  /** Stores the account's current token, replacing (and so invalidating) every older one. */
  put(record: TokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<TokenRecord | null>;
}

/** One Idempotency-Key of one account: claimed by the first request, then holding its answer. */
export interface IdempotencyRecord {
  clientId: string;
  key: string;
  /** Identifies the request (method, path and body) that claimed the key; opaque to the store. */
  fingerprint: string;
  /** `pending` while the claiming request runs; `done` once its answer is stored. */
  state: 'pending' | 'done';
  /** The claiming request's own id. A pending record is held by it until `lockedUntil`. */
  owner: string;
  /** Epoch ms: a pending record whose lease has lapsed by then belongs to a request that died. */
  lockedUntil: number;
  /** The stored answer once `done`: its HTTP status and its body as the gateway keeps it (opaque to the store). */
  answer?: { status: number; body: string };
  /** Epoch ms of the claim. */
  createdAt: number;
  /** Epoch ms after which the record counts as absent: the key may be claimed anew. */
  expiresAt: number;
}

export interface IdempotencyClaimRequest {
  clientId: string;
  key: string;
  fingerprint: string;
  owner: string;
  /** Epoch ms: the claim's createdAt, and the time against which leases and expiry are judged. */
  now: number;
  lockedUntil: number;
  expiresAt: number;
}

export type IdempotencyClaim = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Claims `clientId`/`key`, atomically: of concurrent callers exactly one succeeds. It succeeds
   * when no record exists, when the record has expired (`expiresAt <= now`), or when the record is
   * pending, carries the same fingerprint and its lease has lapsed (`lockedUntil <= now`: the
   * request that held it died). Otherwise nothing is written and the live record is returned.
   */
  claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /**
   * Stores the answer of a pending claim held by `owner`; false, writing nothing, when `owner` does
   * not hold it. `parcels`: the tracking numbers the answer concerns, whose erasure drops it (`forgetParcels`).
   */
  complete(
    clientId: string,
    key: string,
    owner: string,
    answer: { status: number; body: string },
    parcels?: readonly string[],
  ): Promise<boolean>;
  /** Drops a pending claim held by `owner`, so that the next request with the key runs anew. */
  release(clientId: string, key: string, owner: string): Promise<void>;
  get(clientId: string, key: string): Promise<IdempotencyRecord | null>;
  /** Deletes every record expired at `now`; resolves with how many. */
  purgeExpired(now: number): Promise<number>;
  /**
   * Deletes every record whose answer concerns one of `trackingNumbers` (given to `complete`), of
   * any account, expired or not: an erased parcel's answers (a label) are kept no more, and its
   * key may then be claimed anew. Resolves with how many.
   */
  forgetParcels(trackingNumbers: readonly string[]): Promise<number>;
}

/** Completed end-of-day manifests (create-manifest), read by get-manifest and list-manifests. */
export interface ManifestStore {
  /** Stores a completed manifest; a manifest of the same id stored before is kept as it is (it never changes). */
  put(manifest: StoredManifest): Promise<void>;
  /** The manifest when it belongs to `clientId`, else null: another account's reads as missing. */
  getForClient(clientId: string, manifestId: string): Promise<StoredManifest | null>;
  /**
   * The account's manifests, newest first (by creation, then id, descending), at most `limit`;
   * `carrier`: only that carrier's; `before`: only those after the account's manifest of that id
   * in this order (an id the account has not: none).
   */
  listForClient(clientId: string, query: ManifestListQuery): Promise<StoredManifest[]>;
  /** The checkpoint of the subscription that finishes manifests (`ProjectionCheckpoints`). */
  checkpoints: ProjectionCheckpoints;
}

export interface ManifestListQuery {
  limit: number;
  carrier?: string;
  before?: string;
}

export interface ProjectionStore {
  parcels: ParcelViewStore;
  manifests: ManifestStore;
  tokens: TokenStore;
  /** Idempotency-Key records of the gateway, shared by every gateway process of a deployment. */
  idempotency: IdempotencyStore;
  /**
   * After personal data was erased from views: wipes what the store's own files may still hold of
   * the values it overwrote, as far as the store can (docs/personal-data.md says what each leaves).
   */
  shred(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
