/**
 * A render thread of the pool (pool.ts): a renderer of its own, built from the reference data
 * and the shared font bytes the main thread sent, renders one job after another.
 *
 * Node starts it from this `.ts` file with its own type stripping, also when the main thread runs
 * under jest (jest's transform never sees a worker's modules).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createThreadRenderer, renderJob } from './index.ts';
import type { FromThread, RenderThreadData, ToThread } from './pool.ts';

const port = parentPort;
if (!port) throw new Error('renderThread.ts runs as a worker thread only');
const data = workerData as RenderThreadData;

const renderer = await createThreadRenderer({ ref: data.ref, fontsDir: data.fontsDir, barcodeCacheSize: data.barcodeCacheSize }, data.fontBytes);

port.on('message', ({ id, job }: ToThread) => {
  renderJob(renderer, job).then(
    (content) => port.postMessage({ kind: 'done', id, content } satisfies FromThread),
    (error: unknown) => port.postMessage({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) } satisfies FromThread),
  );
});
port.postMessage({ kind: 'ready' } satisfies FromThread);
