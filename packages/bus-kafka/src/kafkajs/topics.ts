import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from 'kafkajs';
import type { EnsureTopics, Topics } from '../shared/topics.ts';

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

export function createTopics(admin: Admin, ensure: EnsureTopics | undefined): Topics {
  const known = new Map<string, Promise<number>>();

  async function lookUp(topic: string): Promise<number> {
    if (!(await admin.listTopics()).includes(topic)) {
      if (!ensure) {
        throw new Error(`topic ${topic} does not exist on the broker (auto creation is off): create it with infra/topics.sh`);
      }
      const created = await admin.createTopics({
        topics: [{ topic, numPartitions: ensure.partitions, replicationFactor: ensure.replicationFactor ?? 1 }],
        waitForLeaders: true,
      });
      if (created) ensure.onCreated?.(topic);
    }
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]?.partitions.length ?? 0;
  }

  return {
    partitions(topic) {
      let partitions = known.get(topic);
      if (!partitions) {
        partitions = lookUp(topic);
        known.set(topic, partitions);
        partitions.catch(() => known.delete(topic));
      }
      return partitions;
    },
    async endOffsets(topic) {
      const offsets = await settled(() => admin.fetchTopicOffsets(topic));
      return new Map(offsets.map(({ partition, high }) => [partition, high]));
    },
    async uncommitted(groupId, topic) {
      const [committed] = await settled(() => admin.fetchOffsets({ groupId, topics: [topic] }));
      return new Set((committed?.partitions ?? []).filter(({ offset }) => Number(offset) < 0).map(({ partition }) => partition));
    },
  };
}
