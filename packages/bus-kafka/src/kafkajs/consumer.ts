import type { Consumer, ConsumerConfig, EachBatchPayload, Kafka } from 'kafkajs';
import { createCommitter } from '../shared/committer.ts';
import type { CommitOffsets, Committer } from '../shared/committer.ts';
import { bounded, restarter, startOrAbandon } from '../shared/consumer.ts';
import type { BatchContext, GroupConsumer } from '../shared/consumer.ts';
import type { BusLogger } from '../shared/log.ts';
import type { MemberTiming } from '../shared/tuning.ts';

export interface ConsumerTuning extends MemberTiming {
  config: Omit<ConsumerConfig, 'groupId'>;
}

export interface GroupConsumerSpec {
  topic: string;
  groupId: string;
  /** Commit resolved offsets (on an interval, see ConsumerTuning); false: positions live in memory only. */
  commit: boolean;
  /** Batches of different partitions handled at once. */
  partitionsConcurrently: number;
  /** Where to start the partitions just assigned, for those that need it. */
  seekOnJoin: (partitions: number[]) => Array<{ partition: number; offset: string }>;
  eachBatch: (payload: EachBatchPayload, context: BatchContext) => Promise<void>;
}

/**
 * Starts a consumer group member and resolves once it joined, got its partitions, fetched once
 * from its positions and committed the starting positions `seekOnJoin` chose: a record produced
 * after that is delivered. Should kafkajs give up on it later (a crash it does not restart from),
 * a new member takes its place.
 *
 * Offsets: kafkajs's autoCommit commits after every batch (one OffsetCommit request per batch,
 * awaited before the next fetch), so it is off; the committer sends what is resolved on an
 * interval, and at once when the member gives way to a rebalance or stops.
 */
export async function startGroupConsumer(
  kafka: Kafka,
  spec: GroupConsumerSpec,
  tuning: ConsumerTuning,
  log: BusLogger,
): Promise<GroupConsumer> {
  const { topic, groupId } = spec;
  const stopping = new AbortController();
  const abandon = new AbortController();
  const abandoned = new Promise<void>((resolve) =>
    abandon.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  const ready = Promise.withResolvers<void>();
  ready.promise.catch(() => undefined); // awaited below; a crash during run() must not count as unhandled
  let started = false;
  let current: Consumer | undefined;
  const topicOffsets = (offsets: Array<{ partition: number; offset: string }>) => [{ topic, partitions: offsets }];
  // Outside a batch, through the consumer (kafkajs skips it while the consumer is not running: the
  // positions then stay outstanding and go with the next flush).
  const viaConsumer: CommitOffsets = async (offsets) =>
    current?.commitOffsets(offsets.map(({ partition, offset }) => ({ topic, partition, offset })));
  const committer: Committer | undefined = spec.commit
    ? createCommitter(viaConsumer, tuning.commitIntervalMs, { topic, groupId, log })
    : undefined;

  const eachBatch = async (payload: EachBatchPayload) => {
    // A failed heartbeat means a rebalance (or a lost broker): finish what runs, start nothing new,
    // and return so kafkajs can rejoin; the rest of the batch is fetched again.
    let yielding = false;
    const beat = setInterval(() => payload.heartbeat().catch(() => (yielding = true)), tuning.heartbeatIntervalMs);
    const proceed = () => !yielding && !stopping.signal.aborted && payload.isRunning() && !payload.isStale();
    const resolve = (offset: string) => {
      payload.resolveOffset(offset);
      committer?.resolved(payload.batch.partition, offset);
    };
    const work = spec.eachBatch(payload, { proceed, resolve, abandoned: abandon.signal, stopping: stopping.signal });
    work.catch(() => undefined); // an abandoned batch may still fail later, unobserved
    try {
      await Promise.race([work, abandoned]);
    } finally {
      clearInterval(beat);
    }
    // Giving way to a rebalance or stopping: commit what is done before kafkajs rejoins or leaves,
    // through the batch's own commit, which works while kafkajs stops too.
    if (committer && !proceed() && !abandon.signal.aborted) {
      await committer.flush((offsets) => payload.commitOffsetsIfNecessary({ topics: topicOffsets(offsets) }));
    }
  };

  async function launch(): Promise<void> {
    const consumer = kafka.consumer({
      ...tuning.config,
      groupId,
      retry: { ...tuning.config.retry, restartOnFailure: async () => started && !stopping.signal.aborted },
    });
    current = consumer;
    let joined = false;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = payload.memberAssignment[topic] ?? [];
      committer?.assigned(assigned);
      // Synchronous inside kafkajs's join: the seeks apply to the fetch that follows it.
      for (const { partition, offset } of spec.seekOnJoin(assigned)) {
        consumer.seek({ topic, partition, offset });
        committer?.startAt(partition, offset);
      }
      joined = true;
    });
    consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
      for (const committed of payload.topics) if (committed.topic === topic) committer?.committed(committed.partitions);
    });
    // kafkajs noticed a rebalance itself (not during one of our batches): commit what is done, as
    // the positions of partitions that move are then the new owner's start.
    consumer.on(consumer.events.REBALANCING, () => void committer?.flush().catch(() => undefined));
    consumer.on(consumer.events.FETCH, () => {
      if (joined) ready.resolve();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!started) return ready.reject(payload.error);
      log.error({ topic, groupId, error: payload.error.message, restart: payload.restart }, 'consumer crashed');
      if (!payload.restart) replacement.schedule();
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: spec.partitionsConcurrently,
      eachBatch,
    });
    // A replacement that was still starting when the consumer stopped.
    if (started && stopping.signal.aborted) await consumer.disconnect();
  }

  const replacement = restarter(
    stopping.signal,
    async () => {
      log.warn({ topic, groupId }, 'kafkajs gave up on the consumer: starting a new one');
      await launch();
    },
    (error) => log.error({ topic, groupId, error: error.message }, 'consumer could not be started again'),
  );

  const stop = async (mode: 'drain' | 'abandon') => {
    stopping.abort();
    replacement.cancel();
    if (mode === 'abandon') abandon.abort();
    const drainLimit = setTimeout(() => abandon.abort(), tuning.drainTimeoutMs);
    try {
      // What finished before now is committed while the consumer still runs; batches that finish
      // during the disconnect commit their own (see eachBatch).
      if (committer?.pending() && started) await bounded(committer.flush(), tuning.finalCommitTimeoutMs);
      committer?.stop();
      await current?.disconnect();
    } catch (error) {
      log.warn({ topic, groupId, error: (error as Error).message }, 'consumer did not disconnect cleanly');
    } finally {
      clearTimeout(drainLimit);
    }
  };

  return startOrAbandon(
    { stop },
    async () => {
      await launch();
      await ready.promise;
      started = true;
      // The starting positions of a new group, committed before anyone relies on them.
      if (committer?.pending()) await committer.flush();
    },
    { ms: tuning.startTimeoutMs, what: `consumer group ${groupId} on ${topic}`, expired: ready.reject },
  );
}
