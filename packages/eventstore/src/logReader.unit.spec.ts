/** The shared log reader over an in-memory log: what it reads from the store, and what it hands out. */
import { startCatchUpSubscription } from './catchUpSubscription.ts';
import { createLogReader } from './logReader.ts';
import type { LogReaderOptions } from './logReader.ts';
import type { RecordedEvent } from './port.ts';

function memoryLog(options: Omit<LogReaderOptions, 'readPage'> = {}) {
  const log: RecordedEvent[] = [];
  /** Each store read: [after, events returned]. */
  const reads: [number, number][] = [];
  let hold: Promise<void> | undefined;
  const readPage = async (after: number, limit: number): Promise<RecordedEvent[]> => {
    // Parsed anew at every read, as the adapters do: objects of this read's own.
    const page = log.filter((e) => e.globalPosition > after).slice(0, limit);
    const copy = page.map((e) => ({ ...e, data: structuredClone(e.data), metadata: { ...e.metadata } }));
    if (hold) await hold;
    reads.push([after, copy.length]);
    return copy;
  };
  const reader = createLogReader({ ...options, readPage });
  /** Commits one event; `notify` as a store does for its own commits. */
  const append = (notify = true): void => {
    const n = log.length + 1;
    log.push({
      id: `e${n}`,
      streamName: `s-${n % 3}`,
      type: 'T',
      revision: 0,
      globalPosition: n * 2, // positions with gaps, as KurrentDB's
      data: { n, nested: { items: [n] } },
      metadata: {},
      recordedAt: '2026-11-23T00:00:00.000Z',
    });
    if (notify) reader.invalidate();
  };
  /** Store reads wait until the returned function is called. */
  const holdReads = (): (() => void) => {
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    return () => {
      hold = undefined;
      release();
    };
  };
  /**
   * Commits `count` events as a store of this process does: notified, then handed over as they
   * were written (objects of their own, as the store parses its own JSON text). Returns how many
   * times the reader asked for them.
   */
  const commitAndOffer = (count: number): { asked: number } => {
    const after = log.at(-1)?.globalPosition ?? 0;
    for (let i = 0; i < count; i++) append();
    const handed = { asked: 0 };
    reader.offer(after, () => {
      handed.asked++;
      return log.slice(-count).map((e) => ({ ...e, data: structuredClone(e.data), metadata: { ...e.metadata } }));
    });
    return handed;
  };
  return { reader, append, commitAndOffer, reads, holdReads };
}

const positions = (events: readonly RecordedEvent[]) => events.map((e) => e.globalPosition);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('subscriptions at the same place get the same events, read from the store and parsed once, deeply frozen', async () => {
  const { reader, append, reads } = memoryLog();
  for (let i = 0; i < 5; i++) append();
  const [a, b] = await Promise.all([reader.read(0, 100), reader.read(0, 100)]);
  expect(positions(a)).toEqual([2, 4, 6, 8, 10]);
  expect(b[0]).toBe(a[0]);
  expect(reads).toEqual([[0, 5]]);
  expect(Object.isFrozen(a[0])).toBe(true);
  expect(Object.isFrozen((a[0]!.data as { nested: { items: number[] } }).nested.items)).toBe(true);
  expect(() => {
    (a[0]!.data as { n: number }).n = 7;
  }).toThrow(TypeError);
});

test('a subscription trailing the others reads from memory; one behind the window reads behind from the store', async () => {
  const { reader, append, reads } = memoryLog({ keep: 2 });
  for (let i = 0; i < 3; i++) append();
  expect(positions(await reader.read(0, 2))).toEqual([2, 4]);
  expect(positions(await reader.read(0, 2))).toEqual([2, 4]); // a full page in memory: no store read
  expect(reads).toEqual([[0, 2]]);
  for (let i = 0; i < 4; i++) append();
  // The leader pages on to the head; the window keeps 2 to 4 events.
  let leader = 4;
  for (let page = await reader.read(leader, 2); page.length > 0; page = await reader.read(leader, 2))
    leader = page.at(-1)!.globalPosition;
  expect(leader).toBe(14);
  reads.length = 0;
  // Behind the window: the store, page after page, until it reaches the window.
  const behind = await reader.read(0, 2);
  expect(positions(behind)).toEqual([2, 4]);
  expect(reads).toEqual([[0, 2]]);
  expect(Object.isFrozen(behind[0])).toBe(true);
  const trailing: number[] = [];
  for (let after = 4, page = await reader.read(after, 2); page.length > 0; page = await reader.read(after, 2)) {
    trailing.push(...positions(page));
    after = page.at(-1)!.globalPosition;
  }
  expect(trailing).toEqual([6, 8, 10, 12, 14]);
});

test('a page shorter than asked for means nothing more was committed before the read', async () => {
  const { reader, append, reads } = memoryLog();
  append();
  expect(positions(await reader.read(0, 100))).toEqual([2]);
  expect(positions(await reader.read(0, 100))).toEqual([2]); // the head as found, same turn, no commit since
  expect(reads).toHaveLength(1);
  append(); // notified: the next read asks the store
  expect(positions(await reader.read(0, 100))).toEqual([2, 4]);
  expect(reads).toEqual([
    [0, 1],
    [2, 1],
  ]);
  // Another process's commit (not notified) is seen once the turn that found the head has ended.
  append(false);
  await nextTurn();
  expect(positions(await reader.read(4, 100))).toEqual([6]);
});

test('a commit made while a read is under way is not hidden by that read', async () => {
  const { reader, append, holdReads } = memoryLog({ headValidMs: 60_000 });
  append();
  const release = holdReads();
  const early = reader.read(0, 100);
  append(); // committed after the store read began: that read may miss it
  const late = reader.read(0, 100);
  release();
  expect(positions(await early).length).toBeGreaterThanOrEqual(1);
  expect(positions(await late)).toEqual([2, 4]);
});

test('a commit handed over where the window ends is read from memory, frozen, with no store read', async () => {
  const { reader, append, commitAndOffer, reads } = memoryLog();
  append();
  expect(positions(await reader.read(0, 100))).toEqual([2]);
  expect(commitAndOffer(2).asked).toBe(1);
  const page = await reader.read(2, 100);
  expect(positions(page)).toEqual([4, 6]);
  expect(Object.isFrozen((page[0]!.data as { nested: object }).nested)).toBe(true);
  expect(reads).toEqual([[0, 1]]);
  // The head as it was at the commit, for the rest of the turn; then the store is asked again.
  expect(await reader.read(6, 100)).toEqual([]);
  expect(reads).toHaveLength(1);
  await nextTurn();
  append(false); // another process's commit, not notified
  expect(positions(await reader.read(6, 100))).toEqual([8]);
});

test('a commit handed over past a gap, or while a store read is under way, is not taken: the store fills in', async () => {
  const { reader, append, commitAndOffer, reads, holdReads } = memoryLog();
  append();
  expect(positions(await reader.read(0, 100))).toEqual([2]);
  append(false); // another process's commit: the window does not end where the next offer starts
  expect(commitAndOffer(1).asked).toBe(0);
  expect(positions(await reader.read(2, 100))).toEqual([4, 6]);
  expect(reads).toEqual([
    [0, 1],
    [2, 2],
  ]);
  // A store read under way may bring the same events: taking the offer too would hand them out twice.
  await nextTurn();
  const release = holdReads();
  const reading = reader.read(6, 100);
  expect(commitAndOffer(1).asked).toBe(0);
  release();
  expect(positions(await reading)).toEqual([8]);
  expect(positions(await reader.read(4, 100))).toEqual([6, 8]);
});

test('a subscription ahead of the window starts a new one there', async () => {
  const { reader, append } = memoryLog();
  for (let i = 0; i < 6; i++) append();
  expect(positions(await reader.read(0, 2))).toEqual([2, 4]);
  expect(positions(await reader.read(8, 100))).toEqual([10, 12]);
  expect(positions(await reader.read(4, 100))).toEqual([6, 8, 10, 12]); // behind it now: the store
});

test('catch-up subscriptions of their own pace over one reader each get every event once, in order', async () => {
  const { reader, append } = memoryLog({ keep: 3 });
  const source = {
    readAll: (after: number, limit: number) => reader.read(after, limit),
    headPosition: async () => 0,
    loadCheckpoint: async () => 0,
    saveCheckpoint: async () => undefined,
  };
  let gate: () => void = () => undefined;
  let gated = new Promise<void>((resolve) => (gate = resolve));
  const seen = { fast: [] as number[], slow: [] as number[], batch: [] as number[] };
  const subscriptions = [
    startCatchUpSubscription(source, {
      subscriptionId: 'fast',
      pollIntervalMs: 60_000,
      batchSize: 2,
      handler: async (e) => void seen.fast.push(e.globalPosition),
    }),
    startCatchUpSubscription(source, {
      subscriptionId: 'slow',
      pollIntervalMs: 60_000,
      batchSize: 2,
      handler: async (e) => {
        await gated; // held until the others are far ahead, past the reader's window
        seen.slow.push(e.globalPosition);
      },
    }),
    startCatchUpSubscription(source, {
      subscriptionId: 'batch',
      pollIntervalMs: 60_000,
      batchSize: 3,
      handleBatch: async (page) => void seen.batch.push(...positions(page)),
    }),
  ];
  const wakeAll = () => subscriptions.forEach((s) => s.wake());
  try {
    for (let i = 0; i < 20; i++) {
      append();
      wakeAll();
      if (i % 4 === 0) await nextTurn();
    }
    const all = Array.from({ length: 20 }, (_, i) => (i + 1) * 2);
    while (seen.fast.length < 20 || seen.batch.length < 20) await nextTurn();
    expect(seen.slow.length).toBeLessThan(20);
    gate();
    gated = Promise.resolve();
    while (seen.slow.length < 20) await nextTurn();
    expect(seen).toEqual({ fast: all, slow: all, batch: all });
  } finally {
    gate();
    await Promise.all(subscriptions.map((s) => s.stop()));
  }
});
