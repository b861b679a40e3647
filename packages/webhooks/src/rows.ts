/**
 * The webhook tables' rows as the SQL adapters read them, and their mapping to the port's values.
 * One shape serves both drivers: node:sqlite gives every integer as a number and a flag as 0 or 1;
 * `pg` gives bigint columns as text (the adapters select them `::text`) and booleans as booleans.
 * Times are Unix milliseconds.
 */
import type { WebhookEventType } from '@parcel-logistics/contracts';
import type {
  DeliveryAttempt,
  DeliveryMessage,
  DeliveryState,
  PendingDelivery,
  RecordedAttempt,
  ReplayRequest,
  ReplayStatus,
} from './deliveries.ts';
import type { WebhookEndpoint } from './port.ts';

/** An integer column: a number from node:sqlite, text from `pg` for a bigint. */
type Integer = number | string;

export interface EndpointRow {
  client_id: string;
  id: string;
  url: string;
  event_types: string;
  description: string;
  /** 0 or 1 in SQLite, a boolean in PostgreSQL. */
  enabled: number | boolean;
  disabled_reason: string;
  secrets: string;
  created_at: Integer;
  updated_at: Integer;
}

export interface MessageRow {
  endpoint_id: string;
  event_id: string;
  position: Integer;
  body: string;
  attempts: Integer;
  next_attempt_at: Integer;
  failing_since: Integer | null;
  state: string;
  queued_at: Integer;
  settled_at: Integer | null;
}

export interface AttemptRow {
  seq: Integer;
  endpoint_id: string;
  event_id: string;
  attempt: Integer;
  at: Integer;
  duration_ms: Integer;
  status: Integer | null;
  answer: string;
  reason: string;
}

export interface ReplayRow {
  id: string;
  endpoint_id: string;
  since: Integer;
  requested_at: Integer;
  status: string;
  position: Integer;
  scanned: Integer;
  queued: Integer;
  finished_at: Integer | null;
}

/** The `secrets` column's JSON: each secret with its expiry in Unix milliseconds. */
interface StoredSecret {
  secret: string;
  expiresAt: number | null;
}

const dateOf = (ms: Integer) => new Date(Number(ms));
const dateOrNull = (ms: Integer | null) => (ms === null ? null : dateOf(ms));

export const endpointOfRow = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  clientId: row.client_id,
  url: row.url,
  eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
  description: row.description,
  enabled: row.enabled === true || row.enabled === 1,
  disabledReason: row.disabled_reason,
  secrets: (JSON.parse(row.secrets) as StoredSecret[]).map((s) => ({
    secret: s.secret,
    expiresAt: s.expiresAt === null ? null : new Date(s.expiresAt),
  })),
  createdAt: dateOf(row.created_at),
  updatedAt: dateOf(row.updated_at),
});

/**
 * The endpoint's columns from `url` to `updated_at`, in the tables' order; `flag` writes `enabled`
 * as the driver takes a boolean (node:sqlite binds no booleans: 0 or 1 there).
 */
export const endpointColumns = <Flag>(e: WebhookEndpoint, flag: (on: boolean) => Flag) =>
  [
    e.url,
    JSON.stringify(e.eventTypes),
    e.description,
    flag(e.enabled),
    e.disabledReason,
    JSON.stringify(
      e.secrets.map((s): StoredSecret => ({ secret: s.secret, expiresAt: s.expiresAt?.getTime() ?? null })),
    ),
    e.createdAt.getTime(),
    e.updatedAt.getTime(),
  ] as const;

/** An attempt's columns from `endpoint_id` to `reason`, in the attempts table's order (`seq` is the table's). */
export const attemptColumns = (a: DeliveryAttempt) =>
  [a.endpointId, a.eventId, a.attempt, a.at.getTime(), Math.round(a.durationMs), a.status, a.answer, a.reason] as const;

/** A replay's columns, every one in the replays table's order. */
export const replayColumns = (r: ReplayRequest) =>
  [
    r.id,
    r.endpointId,
    r.since.getTime(),
    r.requestedAt.getTime(),
    r.status,
    r.position,
    r.scanned,
    r.queued,
    r.finishedAt?.getTime() ?? null,
  ] as const;

export const pendingOf = (row: MessageRow): PendingDelivery => ({
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  position: Number(row.position),
  body: row.body,
  attempts: Number(row.attempts),
  nextAttemptAt: dateOf(row.next_attempt_at),
  failingSince: dateOrNull(row.failing_since),
});

export const messageOf = (row: MessageRow): DeliveryMessage => ({
  ...pendingOf(row),
  state: row.state as DeliveryState,
  queuedAt: dateOf(row.queued_at),
  settledAt: dateOrNull(row.settled_at),
});

export const attemptOf = (row: AttemptRow): RecordedAttempt => ({
  seq: Number(row.seq),
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  attempt: Number(row.attempt),
  at: dateOf(row.at),
  durationMs: Number(row.duration_ms),
  status: row.status === null ? null : Number(row.status),
  answer: row.answer,
  reason: row.reason,
});

export const replayOf = (row: ReplayRow): ReplayRequest => ({
  id: row.id,
  endpointId: row.endpoint_id,
  since: dateOf(row.since),
  requestedAt: dateOf(row.requested_at),
  status: row.status as ReplayStatus,
  position: Number(row.position),
  scanned: Number(row.scanned),
  queued: Number(row.queued),
  finishedAt: dateOrNull(row.finished_at),
});
