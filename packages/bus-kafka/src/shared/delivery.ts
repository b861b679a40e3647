import { setTimeout as sleep } from 'node:timers/promises';
import { decode } from './codec.ts';
import type { ConsumedRecord, Decoded } from './codec.ts';
import type { BatchContext } from './consumer.ts';
import { reasonOf } from './log.ts';
import type { BusLogger } from './log.ts';
import type { Sender } from './sender.ts';

export interface DeliveryPolicy {
  maxDeliveries: number;
  /** Pause before the second delivery; doubles for each further one, up to `maxRedeliveryDelayMs`. */
  redeliveryDelayMs: number;
  maxRedeliveryDelayMs: number;
  deadLetterTopic: string;
}

export interface DeliveryTarget {
  topic: string;
  group: string;
  policy: DeliveryPolicy;
  sender: Sender;
  log: BusLogger;
}

/** Delivers one record of `partition`; resolves false when it gave up without finishing it (the consumer is stopping). */
export type Deliver = (record: ConsumedRecord, partition: number, context: BatchContext) => Promise<boolean>;

/**
 * Delivers a record to the handler until it succeeds, up to the delivery limit, then hands it
 * to the dead-letter topic. Retrying in place (rather than seeking back) keeps the key's order
 * and counts deliveries exactly; a crash in between only restarts the count.
 */
export function deliverer(
  { topic, group, policy, sender, log }: DeliveryTarget,
  handler: (decoded: Decoded) => Promise<void>,
): Deliver {
  async function deadLetter(record: ConsumedRecord, partition: number, reason: string): Promise<void> {
    if (topic === policy.deadLetterTopic) {
      // Dead-lettering a dead letter would loop: drop it, loudly.
      log.error({ topic, group, partition, offset: record.offset, reason }, 'dead letter failed again and is dropped');
      return;
    }
    log.warn({ topic, group, partition, offset: record.offset, reason }, 'message moved to the dead-letter topic');
    await sender.send(policy.deadLetterTopic, {
      key: record.key,
      value: record.value,
      headers: {
        ...record.headers,
        'x-dead-letter-reason': reason,
        'x-original-topic': topic,
        'x-original-group': group,
        'x-original-partition': String(partition),
        'x-original-offset': record.offset,
      },
    });
  }

  return async (record, partition, context) => {
    let reason = '';
    for (let delivery = 1; delivery <= policy.maxDeliveries; delivery += 1) {
      if (delivery > 1) {
        const pause = Math.min(policy.redeliveryDelayMs * 2 ** (delivery - 2), policy.maxRedeliveryDelayMs);
        const waited = await sleep(pause, true, { signal: context.stopping }).catch(() => false);
        if (!waited || !context.proceed()) return false;
      }
      let decoded: Decoded;
      try {
        decoded = decode(record, topic, partition);
      } catch (error) {
        await deadLetter(record, partition, `cannot decode: ${reasonOf(error)}`);
        return true;
      }
      try {
        await handler(decoded);
        return true;
      } catch (error) {
        reason = reasonOf(error);
      }
    }
    await deadLetter(record, partition, reason);
    return true;
  };
}
