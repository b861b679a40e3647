/**
 * The render pool: a few worker threads, each with a renderer of its own (renderThread.ts), so
 * that a 5-7 ms PDF does not block the event loop that serves every other request (the embedded
 * stack runs the gateway and every service on one), and so that labels render on more than one
 * core.
 *
 * - Lazy: nothing is started until the first render, so a process that never renders a label
 *   pays nothing for it. Until a thread has started (parsing the fonts takes about half a
 *   second), renders run on the calling thread's renderer instead of waiting.
 * - Each thread takes at most MAX_IN_FLIGHT jobs at a time (the next one is already there when
 *   it finishes one); the rest wait here, first come first served.
 * - A render that throws in a thread rejects with an Error of the same message, as on this
 *   thread. A thread that dies fails the jobs it had and is replaced; threads that die before
 *   they are ready (three times in a row) turn the pool off: renders then run on this thread.
 * - Threads are unreferenced while idle (an idle pool does not keep the process alive) and get
 *   a heap of their own, `resourceLimits`, so a runaway render cannot grow the process.
 */
import { Worker } from 'node:worker_threads';
import type { LabelJob, LabelReference } from './types.ts';

/** Sent to each render thread at start. */
export interface RenderThreadData {
  ref: LabelReference;
  fontsDir?: string;
  barcodeCacheSize?: number;
  /** Font file bytes in shared memory (FontSet.bytes): the thread parses these instead of reading the files. */
  fontBytes: ReadonlyMap<string, Uint8Array>;
}

export type ToThread = { id: number; job: LabelJob };
export type FromThread = { kind: 'ready' } | { kind: 'done'; id: number; content: string } | { kind: 'failed'; id: number; message: string };

export interface RenderPool {
  render(job: LabelJob): Promise<string>;
  /** Starts the threads if they are not running; resolves once every one is ready (or the pool is off). */
  start(): Promise<void>;
  /** Waits for the jobs under way, then stops the threads; the next render starts them again. */
  stop(): Promise<void>;
  /** Threads started and not yet stopped, and whether each is ready (for tests). */
  running(): { worker: Worker; ready: boolean }[];
}

export interface RenderPoolOptions {
  size: number;
  data: RenderThreadData;
  /** Renders on this thread: before a thread is ready, and when the pool is off. */
  fallback(job: LabelJob): Promise<string>;
  /** Old-generation heap of each thread, MB. */
  heapMb: number;
  /** The thread's module; renderThread.ts (tests give another). */
  script?: URL;
}

const MAX_IN_FLIGHT = 2;
const STARTUP_FAILURES_BEFORE_OFF = 3;

interface Pending {
  id: number;
  job: LabelJob;
  resolve(content: string): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  jobs: Map<number, Pending>;
}

export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const script = options.script ?? new URL('./renderThread.ts', import.meta.url);
  const data: RenderThreadData = { ...options.data, ref: referenceForThreads(options.data.ref) };
  let threads: Thread[] = [];
  const queue: Pending[] = [];
  const unsettled = new Set<Promise<string>>();
  let nextId = 1;
  let startupFailures = 0;
  let off = options.size <= 0;
  let waiters: (() => void)[] = [];
  const wake = (): void => {
    if (!off && (threads.length < options.size || threads.some((t) => !t.ready))) return;
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
  };

  const start = (): void => {
    // Under jest this module is CommonJS and SWC rewrites `import.meta.url` from `__filename`;
    // the thread itself is loaded by Node (type stripping), never by jest. It gets none of this
    // process's flags (some break a worker, e.g. `--input-type=module`).
    const worker = new Worker(script, {
      workerData: data,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    worker.unref();
    const thread: Thread = { worker, ready: false, jobs: new Map() };
    threads.push(thread);
    worker.on('message', (message: FromThread) => {
      if (message.kind === 'ready') {
        thread.ready = true;
        startupFailures = 0;
        wake();
      } else {
        const pending = thread.jobs.get(message.id);
        thread.jobs.delete(message.id);
        if (thread.jobs.size === 0) worker.unref();
        if (message.kind === 'done') pending?.resolve(message.content);
        else pending?.reject(new Error(message.message));
      }
      pump();
    });
    let failed = false;
    const fail = (cause: unknown): void => {
      if (failed) return;
      failed = true;
      const wasCurrent = threads.includes(thread);
      threads = threads.filter((t) => t !== thread);
      const lost = [...thread.jobs.values()];
      thread.jobs.clear();
      // Errors from a thread may come from another realm (jest), so no `instanceof Error`.
      const reason = typeof (cause as { message?: unknown })?.message === 'string' ? (cause as { message: string }).message : String(cause);
      for (const p of lost) p.reject(new Error(`label render thread stopped (${reason})`, { cause }));
      if (!wasCurrent || off) return; // stopped on purpose
      if (!thread.ready && ++startupFailures >= STARTUP_FAILURES_BEFORE_OFF && !threads.some((t) => t.ready)) {
        off = true;
        const starting = threads; // none ready, so none has a job
        threads = [];
        for (const t of starting) void t.worker.terminate();
        process.emitWarning(`label render threads fail to start (${reason}); rendering on the main thread`);
        wake();
      } else {
        start();
      }
      pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
  };

  const send = (thread: Thread, pending: Pending): void => {
    thread.jobs.set(pending.id, pending);
    thread.worker.ref();
    try {
      thread.worker.postMessage({ id: pending.id, job: pending.job } satisfies ToThread);
    } catch (error) {
      // Not cloneable: nothing was sent.
      thread.jobs.delete(pending.id);
      if (thread.jobs.size === 0) thread.worker.unref();
      pending.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const pump = (): void => {
    while (queue.length > 0) {
      const ready = threads.filter((t) => t.ready);
      if (off || ready.length === 0) {
        // No thread to take them (the pool is off, or every thread is starting): this thread renders.
        for (const p of queue.splice(0)) options.fallback(p.job).then(p.resolve, p.reject);
        return;
      }
      let best: Thread | undefined;
      for (const t of ready) if (t.jobs.size < MAX_IN_FLIGHT && (!best || t.jobs.size < best.jobs.size)) best = t;
      if (!best) return; // every thread is busy; the next reply pumps again
      send(best, queue.shift()!);
    }
  };

  const startAll = (): void => {
    if (!off && threads.length === 0) for (let i = 0; i < options.size; i++) start();
  };

  return {
    render(job) {
      if (off) return options.fallback(job);
      startAll();
      const promise = new Promise<string>((resolve, reject) => {
        queue.push({ id: nextId++, job, resolve, reject });
        pump();
      });
      unsettled.add(promise);
      const forget = (): void => void unsettled.delete(promise);
      promise.then(forget, forget);
      return promise;
    },
    start() {
      startAll();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        wake();
      });
    },
    async stop() {
      await Promise.allSettled([...unsettled]);
      const stopping = threads;
      threads = [];
      await Promise.all(stopping.map((t) => t.worker.terminate()));
    },
    running: () => threads.map((t) => ({ worker: t.worker, ready: t.ready })),
  };
}

/** The part of the reference data labels use, as plain data a thread can be sent (no carrier secrets). */
function referenceForThreads(ref: LabelReference): LabelReference {
  return {
    defaultServiceType: ref.defaultServiceType,
    serviceTypes: new Map(ref.serviceTypes),
    serviceCodes: new Map([...ref.serviceCodes].map(([country, codes]) => [country, new Map(codes)])),
    carriers: new Map([...ref.carriers].map(([code, c]) => [code, { code: c.code, name: c.name, cancellable: c.cancellable }])),
  };
}
