import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from '@platformatic/kafka';
import type { EnsureTopics, Topics } from '../shared/topics.ts';

export interface PlatformaticTopics extends Topics {
  /** Commits these positions for a group with no member (a new group's starting point); false when the group has members already. */
  commitIfEmpty(groupId: string, topic: string, offsets: Map<number, string>): Promise<boolean>;
}

/** The same Topics as the kafkajs adapter's (kafkajs/topics.ts), on @platformatic/kafka's Admin. */
export function createPlatformaticTopics(admin: Admin, ensure: EnsureTopics | undefined): PlatformaticTopics {
  const known = new Map<string, Promise<number>>();

  async function lookUp(topic: string): Promise<number> {
    if (!(await admin.listTopics()).includes(topic)) {
      if (!ensure) {
        throw new Error(`topic ${topic} does not exist on the broker (auto creation is off): create it with infra/topics.sh`);
      }
      try {
        await admin.createTopics({ topics: [topic], partitions: ensure.partitions, replicas: ensure.replicationFactor ?? 1 });
        ensure.onCreated?.(topic);
      } catch (error) {
        if (!(await admin.listTopics()).includes(topic)) throw error; // created meanwhile by someone else: fine
      }
    }
    // Right after creation the partitions may have no leader yet.
    for (let attempt = 1; ; attempt += 1) {
      const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
      const described = metadata.topics.get(topic);
      if (described && described.partitions.every((partition) => partition.leader >= 0)) return described.partitionsCount;
      if (attempt >= 40) throw new Error(`topic ${topic} has partitions without a leader`);
      await sleep(25 * Math.min(attempt, 10));
    }
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
      const count = await this.partitions(topic);
      const [listed] = await admin.listOffsets({
        topics: [{ name: topic, partitions: Array.from({ length: count }, (_, partitionIndex) => ({ partitionIndex, timestamp: -1n })) }],
      });
      return new Map((listed?.partitions ?? []).map(({ partitionIndex, offset }) => [partitionIndex, offset.toString()]));
    },
    async uncommitted(groupId, topic) {
      const count = await this.partitions(topic);
      const [group] = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: [{ name: topic, partitionIndexes: Array.from({ length: count }, (_, n) => n) }] }] });
      const committed = new Map((group?.topics.find(({ name }) => name === topic)?.partitions ?? []).map((partition) => [partition.partitionIndex, partition.committedOffset]));
      return new Set(Array.from({ length: count }, (_, n) => n).filter((partition) => (committed.get(partition) ?? -1n) < 0n));
    },
    async commitIfEmpty(groupId, topic, offsets) {
      if (offsets.size === 0) return true;
      try {
        await admin.alterConsumerGroupOffsets({
          groupId,
          topics: [{ name: topic, partitionOffsets: [...offsets].map(([partition, offset]) => ({ partition, offset: BigInt(offset) })) }],
        });
        return true;
      } catch {
        return false; // the group has members: they committed their own starting positions before joining
      }
    },
  };
}
