import type { Message } from '@parcel-logistics/bus';

/**
 * Records in the bus's own shapes, which kafkajs's records already have and the
 * @platformatic/kafka adapter converts to and from, so the code both adapters share names neither
 * client. A header may carry several values under one name (kafkajs hands them over as an array).
 */
export type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;
export type RecordHeaders = Record<string, HeaderValue>;

/** A record to produce. */
export interface OutgoingRecord {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: RecordHeaders;
}

/** A record fetched from a partition. */
export interface ConsumedRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers?: RecordHeaders;
  /** The record's offset in its partition, in decimal. */
  offset: string;
}

/** Headers the bus sets itself. The `x-bus-` prefix is reserved: handlers never see these. */
export const busHeader = {
  id: 'x-bus-id',
  type: 'x-bus-type',
  correlationId: 'x-bus-correlation-id',
  replyTo: 'x-bus-reply-to',
  requester: 'x-bus-requester',
  error: 'x-bus-error',
} as const;
const reservedPrefix = 'x-bus-';

export const headerText = (value: HeaderValue): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? headerText(value.at(-1)) : value.toString();

/** A reply travels as JSON in the record's value; `undefined` as a null value. */
export const encodeValue = (payload: unknown): string | null =>
  payload === undefined ? null : JSON.stringify(payload);

export const decodeValue = (value: Buffer | null): unknown =>
  value === null ? undefined : JSON.parse(value.toString('utf8'));

/**
 * A message's payload travels as JSON in the record's value, except a tombstone's (`payload: null`):
 * a null value, which is what compaction deletes a key by. A null value reads back as `null`.
 */
const encodePayload = (payload: unknown): string | null =>
  payload === null || payload === undefined ? null : JSON.stringify(payload);

const decodePayload = (value: Buffer | null): unknown => (value === null ? null : JSON.parse(value.toString('utf8')));

export function encode(message: Message, busHeaders: Record<string, string> = {}): OutgoingRecord {
  return {
    key: message.key,
    value: encodePayload(message.payload),
    headers: { ...message.headers, [busHeader.id]: message.id, [busHeader.type]: message.type, ...busHeaders },
  };
}

export interface Decoded {
  message: Message;
  /** The bus's own headers (`x-bus-*`). */
  bus: Record<string, string>;
}

/** Throws when the value is not JSON (a record some other producer wrote). */
export function decode(record: ConsumedRecord, topic: string, partition: number): Decoded {
  const headers: Record<string, string> = {};
  const bus: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) (name.startsWith(reservedPrefix) ? bus : headers)[name] = text;
  }
  const message: Message = {
    id: bus[busHeader.id] ?? `${topic}/${partition}/${record.offset}`,
    key: record.key?.toString('utf8') ?? '',
    type: bus[busHeader.type] ?? '',
    payload: decodePayload(record.value),
  };
  if (Object.keys(headers).length > 0) message.headers = headers;
  return { message, bus };
}
