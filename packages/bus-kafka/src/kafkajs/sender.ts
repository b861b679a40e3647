import type { Message as KafkaRecord, Producer, TopicMessages } from 'kafkajs';
import type { Outgoing, SendBatch } from '../shared/sender.ts';

function byTopic(batch: Outgoing[]): TopicMessages[] {
  const topics = new Map<string, KafkaRecord[]>();
  for (const { topic, record } of batch) topics.set(topic, [...(topics.get(topic) ?? []), record]);
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}

/** kafkajs's idempotent producer as a SendBatch. */
export const kafkajsSendBatch =
  (producer: Producer): SendBatch =>
  async (records) => {
    await producer.sendBatch({ topicMessages: byTopic(records), acks: -1 });
  };
