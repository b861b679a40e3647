/**
 * One reader of the global log for all the catch-up subscriptions of a store object: each page of
 * the log is read from the store and parsed once, and the same events, deeply frozen, are handed
 * to every subscription that reads that part of the log. Subscriptions keep their own positions,
 * checkpoints and pace; the reader only keeps a window of the most recent events, so that those
 * trailing the head by less than that read them from memory.
 *
 * The window holds the log between two positions exactly as the store had it (`lo` exclusive, `hi`
 * inclusive). A read within it is served from it while it has a full page after the position asked
 * for, or while the window is known to reach the head; otherwise the window is extended, by one
 * store read from `hi` at a time, shared by whoever asks meanwhile. A subscription behind the window
 * reads behind from the store, on its own (its pages are frozen but not kept): the window is
 * bounded, so a slow subscription never holds memory nor loses events. A subscription ahead of
 * the window (a checkpoint moved by another process) starts a new window at its position.
 * docs/architecture.md ("One log reader per store") tells why it is built this way.
 *
 * A store that commits in this process can hand its commit over (`offer`): the events it committed,
 * and the position of the log before them. Where the window ends there, they extend it and the
 * window reaches the head as it was at that commit, so the subscriptions woken by the commit read
 * them from memory, with no store read and no parse of rows (the store parses the JSON text it
 * wrote). An offer that does not meet the window's end is ignored: reads fill the gap as before.
 *
 * "Reaches the head" holds only until the next commit notified (`invalidate`), and at most
 * `headValidMs` (commits of other processes, which are seen by polling alone where no notification
 * comes): a page shorter than asked for must still mean "nothing more was committed before the
 * call", which is what the catch-up loop takes it for.
 */
import type { RecordedEvent } from './port.ts';

export interface LogReaderOptions {
  /** The store's own read of the global log: events after `afterPosition`, at most `limit`, parsed. */
  readPage(afterPosition: number, limit: number): Promise<RecordedEvent[]> | RecordedEvent[];
  /** Events kept behind the newest one read, for subscriptions trailing the head (default 500). */
  keep?: number;
  /**
   * How long a read that found the head is trusted without a notified commit. 0 (default): until
   * the current turn of the event loop ends, for stores that notify every commit made in-process
   * (commits of other processes are then seen by the next poll).
   */
  headValidMs?: number;
}

export interface LogReader {
  /** Events after `afterPosition` (exclusive), at most `limit`, in global order: shared and frozen, never to be changed. */
  read(afterPosition: number, limit: number): Promise<readonly RecordedEvent[]>;
  /** Events were committed: the next read that needs the head asks the store. */
  invalidate(): void;
  /**
   * A commit of this process, after its `invalidate`: `events()` gives the log in (`after`, last of
   * them], in order and complete, and nothing was committed after them when they were. Taken (and
   * `events` called) only where the window ends at `after`; ignored otherwise.
   */
  offer(after: number, events: () => RecordedEvent[]): void;
}

/** Freezes a parsed value and everything in it (bytes, which cannot be frozen, excepted); returns it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const frozen = (events: RecordedEvent[]): readonly RecordedEvent[] => {
  for (const event of events) deepFreeze(event);
  return Object.freeze(events);
};

/** Index of the first event after `position` (events in global order). */
function firstAfter(events: readonly RecordedEvent[], position: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (events[mid]!.globalPosition <= position) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function createLogReader(options: LogReaderOptions): LogReader {
  const keep = Math.max(1, options.keep ?? 500);
  const headValidMs = options.headValidMs ?? 0;

  /** The log in (lo, hi] is exactly `events`; undefined until the first read. */
  let window: { lo: number; hi: number; events: RecordedEvent[] } | undefined;
  /** Bumped by every notified commit: head knowledge of an older generation is void. */
  let generation = 0;
  /** The window reaches the head, as found by a read of this generation, at this time. */
  let head: { generation: number; at: number; turn: number } | undefined;
  let turn = 0;
  let turnEnding = false;
  const endTurn = (): void => {
    turnEnding = false;
    turn++;
  };
  /** The store read extending the window, while it is under way. */
  let extending: Promise<void> | undefined;

  const headKnown = (): boolean =>
    head !== undefined &&
    head.generation === generation &&
    (headValidMs > 0 ? Date.now() - head.at <= headValidMs : head.turn === turn);

  /** The window reaches the head as known now (until the next notified commit, or the end of this turn). */
  const headFound = (): void => {
    head = { generation, at: Date.now(), turn };
    if (headValidMs === 0 && !turnEnding) {
      turnEnding = true;
      setImmediate(endTurn);
    }
  };

  /** Drops the oldest events once twice `keep` are held, so trimming is rare. */
  const trim = (current: { lo: number; events: RecordedEvent[] }): void => {
    if (current.events.length <= 2 * keep) return;
    const dropped = current.events.length - keep;
    current.lo = current.events[dropped - 1]!.globalPosition;
    current.events = current.events.slice(dropped);
  };

  /** One store read from the window's end; events appended, head knowledge set when the page was short. */
  const extend = (limit: number): Promise<void> => {
    const current = window!;
    const startedIn = generation;
    const fetchPage = async (): Promise<void> => {
      const page = await options.readPage(current.hi, limit);
      if (window !== current) return; // replaced meanwhile: this page belongs to no window
      frozen(page);
      for (const event of page) current.events.push(event);
      const last = page.at(-1);
      if (last) current.hi = last.globalPosition;
      if (page.length < limit && startedIn === generation) headFound();
      else head = undefined;
      trim(current);
    };
    const run = fetchPage().finally(() => {
      if (extending === run) extending = undefined;
    });
    extending = run;
    return run;
  };

  return {
    async read(after, limit) {
      if (limit <= 0) return [];
      for (;;) {
        if (window && after < window.lo) {
          // Behind the window: this subscription reads on its own until it reaches it.
          return frozen(await options.readPage(after, limit));
        }
        if (!window || after > window.hi) {
          if (extending) {
            await extending.catch(() => undefined);
            continue;
          }
          window = { lo: after, hi: after, events: [] };
          head = undefined;
        }
        const { events } = window;
        const from = firstAfter(events, after);
        if (events.length - from >= limit || headKnown()) return Object.freeze(events.slice(from, from + limit));
        if (extending) {
          // Whatever it finds, look again: it may have started before the last commit.
          await extending.catch(() => undefined);
          continue;
        }
        await extend(limit);
      }
    },
    invalidate() {
      generation++;
    },
    offer(after, events) {
      // A read under way may bring the same events: the window takes them from one or the other.
      if (!window || window.hi !== after || extending) return;
      const committed = events();
      const last = committed.at(-1);
      if (!last) return;
      frozen(committed);
      for (const event of committed) window.events.push(event);
      window.hi = last.globalPosition;
      headFound();
      trim(window);
    },
  };
}
