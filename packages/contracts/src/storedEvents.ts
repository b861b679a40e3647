/**
 * The stored shape of the domain's events: one serializer per type (versioned type name, dates as
 * ISO strings), and the names of the streams. Stored events are forever: add a new version and an
 * upcaster rather than changing a stored shape (upcasters.ts).
 */
import type { DomainEvent } from '@parcel-logistics/domain';
import { UPCASTERS } from './upcasters.ts';

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
}

type Serializer<E extends DomainEvent> = {
  storedType: string;
  dateFields: readonly (keyof E['data'] & string)[];
};

const serializers: { [K in DomainEvent['type']]: Serializer<Extract<DomainEvent, { type: K }>> } = {
  ParcelRegistered: { storedType: 'ParcelRegistered.v2', dateFields: ['registeredAt'] },
  LabelGenerated: { storedType: 'LabelGenerated.v1', dateFields: ['generatedAt'] },
  ParcelCancelled: { storedType: 'ParcelCancelled.v1', dateFields: ['cancelledAt'] },
  CarrierRegistered: { storedType: 'CarrierRegistered.v1', dateFields: ['registeredAt'] },
  CarrierRegistrationFailed: { storedType: 'CarrierRegistrationFailed.v1', dateFields: ['failedAt'] },
  CarrierEventRecorded: { storedType: 'CarrierEventRecorded.v1', dateFields: ['eventTime', 'recordedAt'] },
  PersonalDataErased: { storedType: 'PersonalDataErased.v1', dateFields: ['erasedAt'] },
  ReferenceClaimed: { storedType: 'ReferenceClaimed.v1', dateFields: ['claimedAt'] },
  OrderBatchAccepted: { storedType: 'OrderBatchAccepted.v2', dateFields: ['acceptedAt'] },
  OrderImportAccepted: { storedType: 'OrderImportAccepted.v1', dateFields: ['acceptedAt'] },
  OrderImportPartCreated: { storedType: 'OrderImportPartCreated.v1', dateFields: ['createdAt'] },
  OrderImportFinished: { storedType: 'OrderImportFinished.v1', dateFields: ['finishedAt'] },
  ParcelManifested: { storedType: 'ParcelManifested.v1', dateFields: ['manifestedAt'] },
  ManifestRecorded: { storedType: 'ManifestRecorded.v1', dateFields: ['recordedAt'] },
  ManifestCompleted: { storedType: 'ManifestCompleted.v1', dateFields: ['completedAt'] },
};

const byStoredType = new Map(Object.entries(serializers).map(([type, s]) => [s.storedType, { type, ...s }]));

export function serializeEvent(event: DomainEvent): StoredEvent {
  const s = serializers[event.type] as Serializer<DomainEvent>;
  const data: Record<string, unknown> = { ...event.data };
  for (const f of s.dateFields) data[f] = (data[f] as Date).toISOString();
  return { type: s.storedType, data };
}

export class UnknownEventTypeError extends Error {
  constructor(storedType: string) {
    super(`unknown stored event type ${storedType}`);
    this.name = 'UnknownEventTypeError';
  }
}

/** A stored event of any version, upcast to the current one first. */
export function deserializeEvent(stored: { type: string; data: unknown }): DomainEvent {
  const upcaster = UPCASTERS.get(stored.type);
  if (upcaster)
    return deserializeEvent({ type: upcaster.to, data: upcaster.up(stored.data as Record<string, unknown>) });
  const s = byStoredType.get(stored.type);
  if (!s) throw new UnknownEventTypeError(stored.type);
  const data: Record<string, unknown> = { ...(stored.data as Record<string, unknown>) };
  for (const f of s.dateFields as readonly string[]) data[f] = new Date(data[f] as string);
  return { type: s.type, data } as DomainEvent;
}

export const parcelStreamName = (trackingNumber: string) => `parcel-${trackingNumber}`;
/** References contain only letters, digits, `-` and `_`, so `/` cannot collide. */
export const referenceStreamName = (clientId: string, customTrackingNum: string) =>
  `reference-${clientId}/${customTrackingNum}`;
export const PARCEL_STREAM_PREFIX = 'parcel-';
export const BATCH_STREAM_PREFIX = 'batch-';
export const batchStreamName = (batchId: string) => `${BATCH_STREAM_PREFIX}${batchId}`;
/** A CSV import's stream (its progress; nothing personal) and the batch stream of each of its parts (its orders). */
export const IMPORT_STREAM_PREFIX = 'import-';
export const importStreamName = (importId: string) => `${IMPORT_STREAM_PREFIX}${importId}`;
export const importPartBatchId = (importId: string, part: number) => `${importId}.${part}`;
/** The import a batch stream is a part of (`batch-<importId>.<part>`); undefined for B2's batches, whose ids hold no dot. */
export const importIdOfPartStream = (streamName: string): string | undefined =>
  /^batch-(.+)\.\d+$/.exec(streamName)?.[1];
/** End-of-day manifests (create-manifest): one stream each, nothing personal in it. */
export const MANIFEST_STREAM_PREFIX = 'manifest-';
export const manifestStreamName = (manifestId: string) => `${MANIFEST_STREAM_PREFIX}${manifestId}`;

/**
 * The retention sweep's housekeeping streams, one per sweep slot (the slot's start, epoch ms): the
 * order-service instance whose `RetentionSweepClaimed` creates the stream (`no_stream`) sweeps
 * that slot, and `RetentionSweepFinished` says what it erased (docs/personal-data.md, "Retention").
 * Not parcel streams: every subscription of the log passes them by.
 */
export const RETENTION_SWEEP_STREAM_PREFIX = 'retention-sweep-';
export const retentionSweepStreamName = (slotStart: Date) => `${RETENTION_SWEEP_STREAM_PREFIX}${slotStart.getTime()}`;
export const RetentionSweepEventTypes = {
  /** `{ slotStart, sweptAt, createdBefore, finalBefore }`, ISO times. */
  claimed: 'RetentionSweepClaimed.v1',
  /** `{ erased, failed }`: how many parcels were erased, and how many erasures failed (tried again next slot). */
  finished: 'RetentionSweepFinished.v1',
} as const;
