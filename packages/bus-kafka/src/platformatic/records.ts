import type { Message as PlatformaticMessage, MessageToProduce } from '@platformatic/kafka';
import type { ConsumedRecord, OutgoingRecord, RecordHeaders } from '../shared/codec.ts';

/**
 * The bus's codec, partition flow and delivery work on the bus's record shapes (shared/codec.ts);
 * these convert @platformatic/kafka's records (all Buffers: no serialisers) to and from them.
 */

const buffer = (value: string | Buffer | null | undefined): Buffer | undefined =>
  value === null || value === undefined ? undefined : Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');

export function toProduce(topic: string, record: OutgoingRecord): MessageToProduce<Buffer, Buffer, Buffer, Buffer> {
  const headers = new Map<Buffer, Buffer>();
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      const bytes = buffer(one);
      if (bytes) headers.set(Buffer.from(name, 'utf8'), bytes);
    }
  }
  const message: MessageToProduce<Buffer, Buffer, Buffer, Buffer> = { topic, headers };
  const key = buffer(record.key);
  const value = buffer(record.value);
  if (key) message.key = key;
  if (value) message.value = value;
  return message;
}

export function fromConsumed(message: PlatformaticMessage<Buffer, Buffer, Buffer, Buffer>): ConsumedRecord {
  const headers: RecordHeaders = {};
  for (const [name, value] of message.headerEntries) headers[name.toString('utf8')] = value;
  return { key: message.key ?? null, value: message.value ?? null, headers, offset: message.offset.toString() };
}
