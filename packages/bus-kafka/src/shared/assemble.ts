import { randomUUID } from 'node:crypto';
import type { Bus, Message, Unsubscribe } from '@parcel-logistics/bus';
import { busHeader, encode, encodeValue } from './codec.ts';
import type { Decoded, OutgoingRecord } from './codec.ts';
import type { GroupConsumer } from './consumer.ts';
import { deliverer } from './delivery.ts';
import type { Deliver } from './delivery.ts';
import { reasonOf } from './log.ts';
import type { BusSettings } from './options.ts';
import { createReplies } from './replies.ts';
import type { ReadReplies } from './replies.ts';
import type { Sender } from './sender.ts';
import type { Topics } from './topics.ts';

/** What a Kafka client library brings to the bus; `assembleBus` does the rest, the same for every client. */
export interface BusParts {
  settings: BusSettings;
  topics: Topics;
  sender: Sender;
  readReplies: ReadReplies;
  /** Starts a consumer group member of `group` on `topic` that hands each record to `deliver` (retries and dead letters included). */
  consume(topic: string, group: string, deliver: Deliver): Promise<GroupConsumer>;
  ping(): Promise<void>;
  /** Disconnects the producer and the admin client, once the consumers are stopped. */
  disconnect(): Promise<void>;
}

const pingTimeoutMs = 5_000;

export function assembleBus(parts: BusParts): Bus {
  const { settings, topics, sender } = parts;
  const { instanceId, replyTopic, policy, log } = settings;
  const replies = createReplies({ topics, replyTopic, instanceId }, parts.readReplies);
  const consumers = new Set<GroupConsumer>();
  let closing: Promise<void> | undefined;

  const closedError = () => new Error('bus is closed');
  const assertOpen = () => {
    if (closing) throw closedError();
  };

  async function consume(
    topic: string,
    group: string,
    handle: (decoded: Decoded) => Promise<void>,
  ): Promise<Unsubscribe> {
    const consumer = await parts.consume(topic, group, deliverer({ topic, group, policy, sender, log }, handle));
    if (closing) {
      await consumer.stop('abandon');
      throw closedError();
    }
    consumers.add(consumer);
    return async () => {
      if (consumers.delete(consumer)) await consumer.stop('drain');
    };
  }

  async function serve(handler: (message: Message) => Promise<unknown>, { message, bus }: Decoded): Promise<void> {
    const correlationId = bus[busHeader.correlationId];
    const replyTo = bus[busHeader.replyTo];
    const headers = {
      [busHeader.correlationId]: correlationId ?? '',
      [busHeader.requester]: bus[busHeader.requester] ?? '',
    };
    let reply: OutgoingRecord;
    try {
      reply = { key: correlationId, value: encodeValue(await handler(message)), headers };
    } catch (error) {
      reply = {
        key: correlationId,
        value: JSON.stringify({ message: reasonOf(error) }),
        headers: { ...headers, [busHeader.error]: '1' },
      };
    }
    // Sending the reply may fail (broker gone): that throws, and the request is delivered again.
    if (replyTo && correlationId) await sender.send(replyTo, reply);
  }

  return {
    async request<TReply>(topic: string, message: Message, { timeoutMs }: { timeoutMs: number }): Promise<TReply> {
      assertOpen();
      const correlationId = randomUUID();
      const pending = replies.expect<TReply>(correlationId, topic, timeoutMs);
      const send = async () => {
        await Promise.all([replies.ready(), topics.partitions(topic)]);
        await sender.send(
          topic,
          encode(message, {
            [busHeader.correlationId]: correlationId,
            [busHeader.replyTo]: replyTopic,
            [busHeader.requester]: instanceId,
          }),
        );
      };
      send().catch((error: unknown) => pending.fail(error instanceof Error ? error : new Error(String(error))));
      return pending.reply;
    },

    async handleRequests(topic, handler) {
      assertOpen();
      // The group is named after the topic: every process serving it shares its partitions.
      return consume(topic, topic, (decoded) => serve(handler, decoded));
    },

    async publish(topic, message) {
      assertOpen();
      await topics.partitions(topic);
      await sender.send(topic, encode(message));
    },

    async subscribe(topic, group, handler) {
      assertOpen();
      return consume(topic, group, ({ message }) => handler(message));
    },

    async ping() {
      assertOpen();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs);
      });
      try {
        await Promise.race([parts.ping(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },

    close() {
      closing ??= (async () => {
        const error = new Error('bus closed before the reply arrived');
        const stopping = [...consumers].map((consumer) => consumer.stop('abandon'));
        consumers.clear();
        await Promise.allSettled([replies.close(error), ...stopping]);
        await sender.close(closedError());
        await parts.disconnect();
      })();
      return closing;
    },
  };
}
