/**
 * A task run at start and then `intervalMs` after each run ends, never two at once; a failed run
 * is reported and the next one comes as usual. `stop` aborts the signal the task is given, lets the
 * run under way finish and schedules none after it.
 */
export function startPolling(task: (signal: AbortSignal) => Promise<void>, options: { intervalMs: number; onError: (err: unknown) => void }) {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    running = task(stopping.signal)
      .catch(options.onError)
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(loop, options.intervalMs);
      });
  };
  loop();
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
