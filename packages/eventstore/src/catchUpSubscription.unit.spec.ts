/** The catch-up loop's page and checkpoint pacing, over an in-memory log (no store involved). */
import { DEFAULT_PAGE_SIZE, startCatchUpSubscription } from './catchUpSubscription.ts';
import type { CatchUpSource, CatchUpSubscription } from './catchUpSubscription.ts';
import type { RecordedEvent } from './port.ts';

function memoryLog() {
  const log: RecordedEvent[] = [];
  const reads: number[] = [];
  const saves: number[] = [];
  let checkpoint = 0;
  const source: CatchUpSource = {
    readAll: async (after, limit) => {
      const page = log.filter((e) => e.globalPosition > after).slice(0, limit);
      reads.push(page.length);
      return page;
    },
    headPosition: async () => log.length,
    loadCheckpoint: async () => checkpoint,
    saveCheckpoint: async (_id, position) => {
      checkpoint = position;
      saves.push(position);
    },
  };
  const append = (): void => {
    const n = log.length + 1;
    log.push({
      id: `e${n}`,
      streamName: 's',
      type: 'T',
      revision: n - 1,
      globalPosition: n,
      data: {},
      metadata: {},
      recordedAt: '2026-11-23T00:00:00.000Z',
    });
  };
  return { source, append, reads, saves, checkpoint: () => checkpoint };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Once caught up, `count` commits `gapMs` apart, each waking the subscription as a store would; then caught up again. */
async function commitOneByOne(
  log: ReturnType<typeof memoryLog>,
  subscription: CatchUpSubscription,
  count: number,
  gapMs: number,
): Promise<void> {
  await subscription.caughtUp();
  for (let i = 0; i < count; i++) {
    log.append();
    subscription.wake();
    await sleep(gapMs);
  }
  await subscription.caughtUp();
}

test('coalesceMs: wakes soon after a page are held back, and the commits of that time come as one page', async () => {
  const log = memoryLog();
  const { source, reads } = log;
  const pages: number[] = [];
  const subscription = startCatchUpSubscription(source, {
    subscriptionId: 'pacing',
    pollIntervalMs: 60_000,
    coalesceMs: 1000, // far longer than the five wakes take, even on a busy machine
    handleBatch: async (events) => void pages.push(events.length),
  });
  try {
    await commitOneByOne(log, subscription, 5, 10);
    expect(pages).toEqual([5]);
    expect(reads.filter((n) => n > 0)).toEqual([5]);
  } finally {
    await subscription.stop();
  }
});

test('a subscription behind reads the log a default page at a time, each page handed on whole', async () => {
  const log = memoryLog();
  const backlog = 2 * DEFAULT_PAGE_SIZE + 10;
  for (let i = 0; i < backlog; i++) log.append();
  const pages: number[] = [];
  const subscription = startCatchUpSubscription(log.source, {
    subscriptionId: 'behind',
    pollIntervalMs: 60_000,
    handleBatch: async (events) => void pages.push(events.length),
  });
  try {
    await subscription.caughtUp();
    expect(pages).toEqual([250, 250, 10]);
    expect(log.reads.filter((n) => n > 0)).toEqual([250, 250, 10]);
  } finally {
    await subscription.stop();
  }
});

test('without coalesceMs every wake reads at once', async () => {
  const log = memoryLog();
  const { source } = log;
  const pages: number[] = [];
  const subscription = startCatchUpSubscription(source, {
    subscriptionId: 'eager',
    pollIntervalMs: 60_000,
    handleBatch: async (events) => void pages.push(events.length),
  });
  try {
    await commitOneByOne(log, subscription, 3, 20);
    expect(pages).toEqual([1, 1, 1]);
  } finally {
    await subscription.stop();
  }
});

test('checkpointEveryMs: one save per interval while events flow, the last position saved on stop', async () => {
  const { source, append, saves, checkpoint } = memoryLog();
  let handled = 0;
  const subscription = startCatchUpSubscription(source, {
    subscriptionId: 'paced-checkpoints',
    pollIntervalMs: 60_000,
    batchSize: 1,
    checkpointEveryMs: 60_000,
    handler: async () => void handled++,
  });
  try {
    for (let i = 0; i < 10; i++) append();
    subscription.wake();
    await subscription.caughtUp();
    expect(handled).toBe(10);
    expect(saves).toEqual([1]); // the first page found no earlier save; then none for 60 s
  } finally {
    await subscription.stop();
  }
  expect(checkpoint()).toBe(10);
});

test('checkpointEveryMs: a subscription at the head saves its last position once due, not at the next poll', async () => {
  const { source, append, saves } = memoryLog();
  const subscription = startCatchUpSubscription(source, {
    subscriptionId: 'due-checkpoint',
    pollIntervalMs: 600_000,
    checkpointEveryMs: 1_000,
    handler: async () => undefined,
  });
  try {
    await subscription.caughtUp();
    append(); // saved at once: the first save of the subscription
    subscription.wake();
    await subscription.caughtUp();
    append(); // within a second of that save: left for later
    subscription.wake();
    await subscription.caughtUp();
    expect(saves).toEqual([1]);
    // Without another commit or a poll (10 minutes away), the position is saved once due.
    for (let waited = 0; saves.at(-1) !== 2 && waited < 4_000; waited += 20) await sleep(20);
    expect(saves).toEqual([1, 2]);
  } finally {
    await subscription.stop();
  }
});
