import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from 'kafkajs';
import type { TopicAdmin } from '../shared/topics.ts';

/**
 * Right after a topic is created, the broker may still answer "not the leader" for a moment;
 * kafkajs's admin does not retry that for offset lookups.
 */
async function settled<T>(lookUp: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lookUp();
    } catch (error) {
      if (attempt >= attempts || (error as { retriable?: boolean }).retriable !== true) throw error;
      await sleep(Math.min(25 * attempt, 250));
    }
  }
}

/** kafkajs's admin client as the bus's TopicAdmin (shared/topics.ts). */
export function kafkajsTopicAdmin(admin: Admin): TopicAdmin {
  return {
    listTopics: () => admin.listTopics(),
    create: (topic, numPartitions, replicationFactor) =>
      admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor }], waitForLeaders: true }),
    async partitionCount(topic) {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0]?.partitions.length ?? 0;
    },
    async endOffsets(topic) {
      const offsets = await settled(() => admin.fetchTopicOffsets(topic));
      return new Map(offsets.map(({ partition, high }) => [partition, high]));
    },
    async committed(groupId, topic) {
      const [committed] = await settled(() => admin.fetchOffsets({ groupId, topics: [topic] }));
      return new Map((committed?.partitions ?? []).map(({ partition, offset }) => [partition, BigInt(offset)]));
    },
  };
}
