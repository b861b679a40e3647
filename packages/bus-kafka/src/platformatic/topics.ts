import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from '@platformatic/kafka';
import type { TopicAdmin } from '../shared/topics.ts';

const indexes = (count: number) => Array.from({ length: count }, (_, partition) => partition);

/** @platformatic/kafka's Admin as the bus's TopicAdmin (shared/topics.ts). */
export function platformaticTopicAdmin(admin: Admin): TopicAdmin {
  return {
    listTopics: () => admin.listTopics(),
    async create(topic, partitions, replicas) {
      try {
        await admin.createTopics({ topics: [topic], partitions, replicas });
        return true;
      } catch (error) {
        if ((await admin.listTopics()).includes(topic)) return false; // created meanwhile by someone else: fine
        throw error;
      }
    },
    async partitionCount(topic) {
      // Right after creation the partitions may have no leader yet.
      for (let attempt = 1; ; attempt += 1) {
        const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
        const described = metadata.topics.get(topic);
        if (described && described.partitions.every((partition) => partition.leader >= 0))
          return described.partitionsCount;
        if (attempt >= 40) throw new Error(`topic ${topic} has partitions without a leader`);
        await sleep(25 * Math.min(attempt, 10));
      }
    },
    async endOffsets(topic, count) {
      const [listed] = await admin.listOffsets({
        topics: [
          { name: topic, partitions: indexes(count).map((partitionIndex) => ({ partitionIndex, timestamp: -1n })) },
        ],
      });
      return new Map(
        (listed?.partitions ?? []).map(({ partitionIndex, offset }) => [partitionIndex, offset.toString()]),
      );
    },
    async committed(groupId, topic, count) {
      const [group] = await admin.listConsumerGroupOffsets({
        groups: [{ groupId, topics: [{ name: topic, partitionIndexes: indexes(count) }] }],
      });
      return new Map(
        (group?.topics.find(({ name }) => name === topic)?.partitions ?? []).map((partition) => [
          partition.partitionIndex,
          partition.committedOffset,
        ]),
      );
    },
  };
}

/** Commits these positions for a group with no member (a new group's starting point); false when the group has members already. */
export async function commitIfEmpty(
  admin: Admin,
  groupId: string,
  topic: string,
  offsets: Map<number, string>,
): Promise<boolean> {
  if (offsets.size === 0) return true;
  try {
    await admin.alterConsumerGroupOffsets({
      groupId,
      topics: [
        {
          name: topic,
          partitionOffsets: [...offsets].map(([partition, offset]) => ({ partition, offset: BigInt(offset) })),
        },
      ],
    });
    return true;
  } catch {
    return false; // the group has members: they committed their own starting positions before joining
  }
}
