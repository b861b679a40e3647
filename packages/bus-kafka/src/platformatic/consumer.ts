import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes } from '@platformatic/kafka';
import type { BaseOptions, Message as PlatformaticMessage, MessagesStream } from '@platformatic/kafka';
import { createCommitter } from '../shared/committer.ts';
import { bounded, restarter, startOrAbandon } from '../shared/consumer.ts';
import type { BatchContext, GroupConsumer } from '../shared/consumer.ts';
import type { Deliver } from '../shared/delivery.ts';
import { createPartitionFlow } from '../shared/flow.ts';
import type { PartitionFlow } from '../shared/flow.ts';
import type { BusLogger } from '../shared/log.ts';
import type { GroupTiming } from '../shared/tuning.ts';
import { fromConsumed } from './records.ts';

export interface StreamTuning extends GroupTiming {
  /** Records fetched ahead of the handlers before the stream pauses. */
  maxQueued: number;
}

/**
 * The group protocol as kafkajs names it (its RoundRobinAssigner; the subscription and assignment
 * encodings are Kafka's standard ones): members of both adapters can then share a group, as
 * during a switch from one to the other.
 */
const groupProtocols = [{ name: 'RoundRobinAssigner', version: 0 }];

export interface StreamConsumerSpec {
  topic: string;
  groupId: string;
  /** Records of one key one at a time, different keys side by side within a partition. */
  keyConcurrency: number;
  deliver: Deliver;
}

interface PartitionState {
  partition: number;
  flow: PartitionFlow;
  /** The offset after the last record queued: a record below it (fetched again after a rejoin) is ours already. */
  next: bigint;
  revoked: boolean;
  /** Failures in a row, for the back-off. */
  failures: number;
}

/**
 * A consumer group member on @platformatic/kafka's message stream, with the kafkajs adapter's
 * guarantees: per partition, one key in order and keys side by side; offsets are committed on an
 * interval only up to what is done; after a failure the unfinished records run again. Unlike the
 * kafkajs adapter, a record starts as soon as it is fetched (see shared/flow.ts) rather than after the
 * batch before it: at 300 create-orders/s, records waited 4 to 8 ms at the median and 40 to 90 ms
 * at the 99th percentile behind the slowest record of the batch before them. The stream fetches
 * ahead while handlers run (up to `maxQueued` unfinished records), and each partition goes at its
 * own pace.
 */
export async function startStreamConsumer(
  base: BaseOptions,
  spec: StreamConsumerSpec,
  tuning: StreamTuning,
  log: BusLogger,
): Promise<GroupConsumer> {
  const { topic, groupId } = spec;
  // The group's settings, given to the consumer and again to each stream it opens.
  const group = {
    autocommit: false,
    sessionTimeout: tuning.sessionTimeoutMs,
    rebalanceTimeout: tuning.rebalanceTimeoutMs,
    heartbeatInterval: tuning.heartbeatIntervalMs,
    protocols: groupProtocols,
    maxWaitTime: tuning.maxWaitTimeMs,
    minBytes: 1,
  };
  const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({ ...base, groupId, ...group });
  consumer.on('error', (error: Error) => log.warn({ topic, groupId, error: error.message }, 'consumer error'));
  const stopping = new AbortController();
  const abandon = new AbortController();
  const partitions = new Map<number, PartitionState>();
  let stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  let queuedTotal = 0;

  const committer = createCommitter(
    async (offsets) => {
      // Mid-rejoin a commit fails and makes the client rejoin once more: leave it for the next flush.
      if (!consumer.isActive()) return;
      await consumer.commit({
        offsets: offsets.map(({ partition, offset }) => ({
          topic,
          partition,
          offset: BigInt(offset),
          leaderEpoch: -1,
        })),
      });
      committer.committed(offsets);
    },
    tuning.commitIntervalMs,
    { topic, groupId, log },
  );

  consumer.on('consumer:group:join', ({ assignments }) => {
    const mine = assignments?.find((assignment) => assignment.topic === topic)?.partitions ?? [];
    committer.assigned(mine);
    for (const [partition, state] of partitions) {
      if (mine.includes(partition)) continue;
      // Moved to another member: start nothing more of it; what runs finishes, its offset is no longer ours.
      state.revoked = true;
      unfinished(-state.flow.unfinished);
      partitions.delete(partition);
    }
  });

  /** Counts the records fetched and not done, pausing the stream at `maxQueued` and resuming it at half. */
  function unfinished(change: number): void {
    queuedTotal += change;
    if (queuedTotal >= tuning.maxQueued) stream?.pause();
    else if (queuedTotal < tuning.maxQueued / 2 && stream?.isPaused()) stream.resume();
  }

  async function recover(state: PartitionState, error: unknown): Promise<void> {
    // A reply or a dead letter could not be sent (broker gone): run what is unfinished again.
    state.failures += 1;
    log.warn(
      { topic, groupId, partition: state.partition, error: (error as Error).message },
      'record failed; delivering the unfinished records again',
    );
    await state.flow.idle();
    await sleep(Math.min(100 * 2 ** state.failures, 2_000), undefined, { signal: stopping.signal }).catch(
      () => undefined,
    );
    if (!state.revoked && !stopping.signal.aborted) state.flow.retry();
  }

  function partitionState(partition: number, offset: bigint): PartitionState {
    const proceed = () => !state.revoked && !stopping.signal.aborted;
    const resolve = (done: string) => {
      state.failures = 0;
      if (!abandon.signal.aborted) committer.resolved(partition, done);
    };
    const context: BatchContext = { proceed, resolve, abandoned: abandon.signal, stopping: stopping.signal };
    const state: PartitionState = {
      partition,
      next: offset,
      revoked: false,
      failures: 0,
      flow: createPartitionFlow({
        concurrency: spec.keyConcurrency,
        handle: (record) => spec.deliver(record, partition, context),
        resolve,
        proceed,
        failed: (error) => void recover(state, error),
        // Records of a revoked partition were taken off the count when it was revoked.
        settled: () => {
          if (!state.revoked) unfinished(-1);
        },
      }),
    };
    return state;
  }

  function onMessage(message: PlatformaticMessage<Buffer, Buffer, Buffer, Buffer>): void {
    let state = partitions.get(message.partition);
    if (!state) {
      state = partitionState(message.partition, message.offset);
      partitions.set(message.partition, state);
    }
    if (message.offset < state.next) return; // fetched again after a rejoin: queued or handled already
    state.next = message.offset + 1n;
    unfinished(1);
    state.flow.push(fromConsumed(message));
  }

  async function open(): Promise<void> {
    const opened = await consumer.consume({
      topics: [topic],
      mode: MessagesStreamModes.COMMITTED,
      fallbackMode: MessagesStreamFallbackModes.LATEST,
      ...group,
    });
    stream = opened;
    opened.on('data', onMessage);
    opened.on('error', (error: Error) => {
      if (stopping.signal.aborted) return;
      // The stream ends on a fetch error (a broker that went away): start a new one.
      log.warn({ topic, groupId, error: error.message }, 'message stream failed: starting a new one');
      reopening.schedule();
    });
  }

  const reopening = restarter(stopping.signal, open, (error) =>
    log.error({ topic, groupId, error: error.message }, 'message stream could not be started again'),
  );

  const stop = async (mode: 'drain' | 'abandon') => {
    stopping.abort();
    reopening.cancel();
    if (mode === 'abandon') abandon.abort();
    stream?.pause();
    const running = [...partitions.values()].map((state) => state.flow.idle());
    if (mode === 'drain') await bounded(Promise.all(running), tuning.drainTimeoutMs);
    abandon.abort();
    if (committer.pending()) await bounded(committer.flush(), tuning.finalCommitTimeoutMs);
    committer.stop();
    await consumer
      .close(true)
      .catch((error: unknown) =>
        log.warn({ topic, groupId, error: (error as Error).message }, 'consumer did not close cleanly'),
      );
  };

  const late = Promise.withResolvers<never>();
  return startOrAbandon(
    { stop },
    async () => {
      await Promise.race([
        (async () => {
          await open();
          // Joined and assigned; wait for the stream to know where to start and to fetch once.
          const assigned = () =>
            (consumer.assignments ?? []).some(
              (assignment) => assignment.topic === topic && assignment.partitions.length > 0,
            );
          if (stream) await once(stream, 'offsets');
          if (stream && assigned()) await once(stream, 'fetch');
        })(),
        late.promise,
      ]);
    },
    { ms: tuning.startTimeoutMs, what: `consumer group ${groupId} on ${topic}`, expired: late.reject },
  );
}
