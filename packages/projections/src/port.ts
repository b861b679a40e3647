/** Projection stores: read models the query endpoints read. Every client-facing read is filtered by account. */
import type { ParcelView } from '@parcel/contracts';

export interface ParcelViewStore {
  /** Internal read, not filtered by account (projectors only). */
  get(trackingNumber: string): Promise<ParcelView | null>;
  /** The parcel when it belongs to `clientId`, else null: another account's parcel reads as missing. */
  getForClient(clientId: string, trackingNumber: string): Promise<ParcelView | null>;
  /** The account's parcels among `trackingNumbers` (duplicates allowed), keyed by tracking number. */
  getManyForClient(clientId: string, trackingNumbers: readonly string[]): Promise<Map<string, ParcelView>>;
  /**
   * Internal read for projectors: the stored revision of each view among `trackingNumbers` that
   * exists (duplicates allowed), in one round trip, so a catch-up projector can skip the events
   * its views already hold without reading each view.
   */
  revisions(trackingNumbers: readonly string[]): Promise<Map<string, number>>;
  getByReference(clientId: string, customTrackingNum: string): Promise<ParcelView | null>;
  /** Internal read for carrier callbacks: the parcel a carrier knows by its own number. */
  getByPartnerTrackingNo(carrier: string, partnerTrackingNo: string): Promise<ParcelView | null>;
  /**
   * Compare-and-set on the stream revision: writes only when the stored view's revision equals
   * `expectedRevision` (-1: no stored view). Returns false, writing nothing, otherwise.
   */
  save(view: ParcelView, expectedRevision: number): Promise<boolean>;
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

export interface ProjectionStore {
  parcels: ParcelViewStore;
  tokens: TokenStore;
  ping(): Promise<void>;
  close(): Promise<void>;
}
