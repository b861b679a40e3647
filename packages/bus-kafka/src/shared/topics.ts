export interface EnsureTopics {
  partitions: number;
  replicationFactor?: number;
  /** Called for each topic this bus created (tests delete them afterwards). */
  onCreated?: (topic: string) => void;
}

export interface Topics {
  /** The topic's partition count; a missing topic is created when allowed, an error otherwise. */
  partitions(topic: string): Promise<number>;
  /** The offset the next record of each partition will get. */
  endOffsets(topic: string): Promise<Map<number, string>>;
  /** Partitions of `topic` for which `groupId` has no committed offset. */
  uncommitted(groupId: string, topic: string): Promise<Set<number>>;
}

/** A client's admin API, as far as `createTopics` needs it. */
export interface TopicAdmin {
  listTopics(): Promise<string[]>;
  /** Creates the topic; false when it existed already (someone else created it meanwhile). */
  create(topic: string, partitions: number, replicationFactor: number): Promise<boolean>;
  /** The topic's partition count, once its partitions have a leader. */
  partitionCount(topic: string): Promise<number>;
  /** The offset the next record of each of the topic's `count` partitions will get. */
  endOffsets(topic: string, count: number): Promise<Map<number, string>>;
  /** The offsets `groupId` committed on the topic's `count` partitions; a partition without one is missing or negative. */
  committed(groupId: string, topic: string, count: number): Promise<Map<number, bigint>>;
}

/** The topics as the bus sees them, on either client's admin API: a topic's partition count is looked up once. */
export function createTopics(admin: TopicAdmin, ensure: EnsureTopics | undefined): Topics {
  const known = new Map<string, Promise<number>>();

  async function lookUp(topic: string): Promise<number> {
    if (!(await admin.listTopics()).includes(topic)) {
      if (!ensure) {
        throw new Error(
          `topic ${topic} does not exist on the broker (auto creation is off): create it with infra/topics.sh`,
        );
      }
      if (await admin.create(topic, ensure.partitions, ensure.replicationFactor ?? 1)) ensure.onCreated?.(topic);
    }
    return admin.partitionCount(topic);
  }

  function partitions(topic: string): Promise<number> {
    let count = known.get(topic);
    if (!count) {
      count = lookUp(topic);
      known.set(topic, count);
      count.catch(() => known.delete(topic));
    }
    return count;
  }

  return {
    partitions,
    async endOffsets(topic) {
      return admin.endOffsets(topic, await partitions(topic));
    },
    async uncommitted(groupId, topic) {
      const count = await partitions(topic);
      const committed = await admin.committed(groupId, topic, count);
      return new Set(
        Array.from({ length: count }, (_, partition) => partition).filter(
          (partition) => (committed.get(partition) ?? -1n) < 0n,
        ),
      );
    },
  };
}
