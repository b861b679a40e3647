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
