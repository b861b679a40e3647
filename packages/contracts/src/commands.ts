/** Commands sent over the bus from the gateway to the services, and their replies. */
import type { OrderImportAccepted, ParcelRegistration } from '@parcel-logistics/domain';
import type { ImportResult } from './orderImport.ts';
import type { StoredManifest } from './manifests.ts';
import type { StoredParcelView } from './views.ts';

export const Topics = {
  orderCommands: 'parcel.commands.order',
  trackingCommands: 'parcel.commands.tracking',
  labelCommands: 'parcel.commands.label',
  /** Personal values in clear: published only with PARCEL_DOWNSTREAM_V1=on (docs/personal-data.md, "Downstream"). */
  parcelEvents: 'parcel.events.v1',
  /** Every parcel event without its personal values. */
  parcelEventsV2: 'parcel.events.v2',
  /** Each parcel's current personal values, compacted; erasure writes the key's tombstone. */
  parcelPersonal: 'parcel.personal.v1',
  deadLetter: 'parcel.deadletter.v1',
} as const;

/** The topics whose `cleanup.policy` is `compact` (infra/topics.sh creates them so): a key's latest value is kept, a tombstone deletes it. */
export const COMPACTED_TOPICS: readonly string[] = [Topics.parcelPersonal];

/**
 * A command of a map as its message carries it: the type and the payload. (The bus package has the
 * same shape for any map; contracts keeps to types of its own.)
 */
type CommandOf<M extends Record<string, { payload: unknown }>, T extends keyof M & string> = {
  [K in T]: { type: K; payload: M[K]['payload'] };
}[T];

export type CreateOrderReply =
  { ok: true; trackingNumber: string; createdAt: string } | { ok: false; error: 'ReferenceExists' | 'Expired' };

/**
 * Header of a command whose requester stops waiting: epoch milliseconds after which the handler
 * must not act on it (a redelivery after a crash would otherwise create what the client was told failed).
 */
export const DEADLINE_HEADER = 'x-deadline';
/** Handlers stop this long before the requester gives up, so a write started in time is answered in time. */
export const DEADLINE_MARGIN_MS = 2000;

export const deadlineFor = (nowMs: number, timeoutMs: number): string =>
  String(nowMs + Math.max(timeoutMs / 2, timeoutMs - DEADLINE_MARGIN_MS));

export type AcceptOrderBatchReply = { ok: true; acceptedAt: string };

export interface CancelOrdersReply {
  success: string[];
  errors: { tracking_number: string; remarks: string }[];
}

/** The order service's commands (`Topics.orderCommands`): each one's payload and reply. */
export type OrderCommands = {
  CreateOrder: { payload: ParcelRegistration; reply: CreateOrderReply };
  /**
   * Sent after a create-order's reply was lost, with the same key: the order service handles one key
   * at a time and in order, so it is answered once that command is settled, and its answer is that
   * command's outcome (ok: the command created the order; otherwise it created nothing).
   */
  SettleCreateOrder: {
    payload: { clientId: string; customTrackingNum: string; commandId: string };
    reply: CreateOrderReply;
  };
  /** B2 (when enabled): validated orders recorded at once, created asynchronously. */
  AcceptOrderBatch: {
    payload: { batchId: string; clientId: string; orders: ParcelRegistration[] };
    reply: AcceptOrderBatchReply;
  };
  /** One part of a CSV import (IMPORT_LIMITS.partSize orders and partBytes at most), recorded as a batch of its own; created once the import is accepted. */
  RecordImportPart: {
    payload: { importId: string; clientId: string; part: number; orders: ParcelRegistration[]; rows: number[] };
    reply: AcceptOrderBatchReply;
  };
  /** A CSV import whose parts are all recorded: its summary, after which its orders are created from the log. */
  AcceptOrderImport: { payload: Omit<OrderImportAccepted['data'], 'acceptedAt'>; reply: ImportResult };
  /** An import of the account as get-import answers it; another account's reads as missing. */
  GetOrderImport: {
    payload: { clientId: string; importId: string };
    reply: { found: false } | { found: true; import: ImportResult };
  };
  CancelOrders: { payload: { clientId: string; trackingNumbers: string[] }; reply: CancelOrdersReply };
  /** Erases the personal data of the account's parcels (docs/personal-data.md); answered as cancel-orders is. */
  ErasePersonalData: { payload: { clientId: string; trackingNumbers: string[] }; reply: CancelOrdersReply };
} & ManifestCommands;

/** Create-manifest: the manifest made, or why none was. */
export type CreateManifestReply =
  { ok: true; manifest: StoredManifest } | { ok: false; error: 'UnsupportedCarrier' | 'NothingToClose' };

/** The order service's end-of-day manifests (docs/bulk.md). */
export type ManifestCommands = {
  /**
   * Closes the account's parcels of `carrier` that the carrier accepted and that are on no manifest
   * yet. `manifestId` is made by the sender: a redelivered command completes the same manifest.
   */
  CreateManifest: { payload: { clientId: string; carrier: string; manifestId: string }; reply: CreateManifestReply };
};

export type CreateManifest = CommandOf<ManifestCommands, 'CreateManifest'>;

export type CreateOrder = CommandOf<OrderCommands, 'CreateOrder'>;
export type SettleCreateOrder = CommandOf<OrderCommands, 'SettleCreateOrder'>;
export type AcceptOrderBatch = CommandOf<OrderCommands, 'AcceptOrderBatch'>;
export type CancelOrders = CommandOf<OrderCommands, 'CancelOrders'>;
export type RecordImportPart = CommandOf<OrderCommands, 'RecordImportPart'>;
export type AcceptOrderImport = CommandOf<OrderCommands, 'AcceptOrderImport'>;
export type GetOrderImport = CommandOf<OrderCommands, 'GetOrderImport'>;
export type ErasePersonalData = CommandOf<OrderCommands, 'ErasePersonalData'>;

/** Why a parcel gets no label (create-label, and each parcel of get-shipping-labels). */
const LABEL_REFUSALS = ['ParcelNotFound', 'SelfLabelNotAllowed', 'PersonalDataErased'] as const;
export type LabelRefusal = (typeof LABEL_REFUSALS)[number];
export const isLabelRefusal = (code: string): code is LabelRefusal =>
  (LABEL_REFUSALS as readonly string[]).includes(code);

/** `content`: the CN23 as Base64. */
export type CreateLabelReply =
  | { ok: true; content: string }
  | { ok: false; error: LabelRefusal }
  | { ok: false; error: 'RenderFailed'; message: string };

/** The formats and page layouts of a document of many labels. */
export type LabelsFormat = 'pdf' | 'zpl';
export type LabelsLayout = 'label' | 'a4-4up';

/**
 * `content`: the document (Base64 PDF, or ZPL), absent when no parcel was labelled; `labelled` in
 * the order asked; each refused number with its reason.
 */
export type CreateLabelsReply =
  | {
      ok: true;
      content?: string;
      labelled: string[];
      refused: { trackingNumber: string; error: LabelRefusal }[];
    }
  | { ok: false; error: 'RenderFailed'; message: string };

export type RecordCarrierEventReply = { ok: true; recorded: boolean } | { ok: false; error: 'UnknownParcel' };

/** The tracking service's commands (`Topics.trackingCommands`): each one's payload and reply. */
export type TrackingCommands = {
  /**
   * A2 create-label, decided and recorded by the tracking service: it reads the parcel's stream once,
   * decides (tenant, Origin and Destination, self-label), has the label service render the CN23 from
   * the parcel as read, and only then appends LB_GN. A refusal or a failed render appends nothing.
   */
  CreateLabel: {
    /** Origin and Destination as the client sent them: the parcel's countries must match exactly. */
    payload: {
      clientId: string;
      trackingNumber: string;
      origin: string;
      destination: string;
      labelType: string;
      direction: 'horizontal' | 'vertical';
    };
    reply: CreateLabelReply;
  };
  /**
   * Many labels in one document (docs/bulk.md, "Many labels in one document"): each parcel's stream
   * is read and decided on as create-label does (the parcel's own countries, so only the tenant,
   * self-label and erasure rules refuse), the label service renders the accepted parcels at once,
   * and only then is each one's LB_GN appended (one `appendMany`). A failed render appends nothing.
   */
  CreateLabels: {
    /** `trackingNumbers`: distinct, in the order asked. */
    payload: {
      clientId: string;
      trackingNumbers: string[];
      format: LabelsFormat;
      layout: LabelsLayout;
    };
    reply: CreateLabelsReply;
  };
  /** A carrier's signed tracking callback, checked and parsed at the gateway. */
  RecordCarrierEvent: {
    payload: {
      carrier: string;
      partnerTrackingNo: string;
      carrierCode: string;
      /** ISO 8601 */
      eventTime: string;
      location: string;
      remarks: string;
      receiveBy: string;
      pod: string[];
    };
    reply: RecordCarrierEventReply;
  };
};

export type CreateLabel = CommandOf<TrackingCommands, 'CreateLabel'>;
export type CreateLabels = CommandOf<TrackingCommands, 'CreateLabels'>;
export type RecordCarrierEvent = CommandOf<TrackingCommands, 'RecordCarrierEvent'>;

export type OrderCommand = CommandOf<OrderCommands, keyof OrderCommands>;
export type TrackingCommand = CommandOf<TrackingCommands, keyof TrackingCommands>;

/** `content` is Base64 for the PDF formats, the document itself for HTML and ZPL. */
export type RenderLabelReply =
  | { ok: true; content: string }
  | { ok: false; error: 'ParcelNotFound' | 'PersonalDataErased' }
  | { ok: false; error: 'RenderFailed'; message: string };

/** The label service's commands (`Topics.labelCommands`). */
export type LabelCommands = {
  /**
   * Rendered on demand by the label service, from the parcel the command carries (create-label, whose
   * tracking service has just read it) or else from the parcel view.
   */
  RenderLabel: {
    payload: {
      clientId: string;
      trackingNumber: string;
      format: 'cn23' | 'pdf' | 'html' | 'zpl';
      direction?: 'horizontal' | 'vertical';
      parcel?: StoredParcelView;
    };
    reply: RenderLabelReply;
  };
  /**
   * Many labels in one document, from the parcels the command carries (the tracking service's
   * CreateLabels has just read and decided on them), in their order.
   */
  RenderLabels: {
    payload: { clientId: string; format: LabelsFormat; layout: LabelsLayout; parcels: StoredParcelView[] };
    reply: RenderLabelsReply;
  };
} & ManifestDocumentCommands;

/** `content`: the document, Base64 for the PDF. */
export type RenderLabelsReply = { ok: true; content: string } | { ok: false; error: 'RenderFailed'; message: string };
export type RenderLabels = CommandOf<LabelCommands, 'RenderLabels'>;

export type RenderLabel = CommandOf<LabelCommands, 'RenderLabel'>;
export type RenderManifest = CommandOf<ManifestDocumentCommands, 'RenderManifest'>;

/** A manifest's PDF, Base64. */
export type RenderManifestReply = { ok: true; content: string } | { ok: false; error: 'RenderFailed'; message: string };

/** The label service's manifest documents (`Topics.labelCommands`, served beside LabelCommands). */
export type ManifestDocumentCommands = {
  RenderManifest: { payload: { manifest: StoredManifest }; reply: RenderManifestReply };
};
export type LabelCommand = CommandOf<LabelCommands, keyof LabelCommands>;
