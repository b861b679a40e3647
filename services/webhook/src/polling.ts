/**
 * A task run at start and then `intervalMs` after each run ends, never two at once; a failed run
 * is reported and the next one comes as usual. `wake` runs it now instead of at the next interval,
 * or once more right after the run under way. `stop` aborts the signal the task is given, lets the
 * run under way finish and schedules none after it.
 */
export function startPolling(
  task: (signal: AbortSignal) => Promise<void>,
  options: { intervalMs: number; onError: (err: unknown) => void },
) {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wokenMeanwhile = false;
  const loop = () => {
    clearTimeout(timer);
    running = task(stopping.signal)
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (stopping.signal.aborted) return;
        if (wokenMeanwhile) {
          wokenMeanwhile = false;
          return loop();
        }
        timer = setTimeout(loop, options.intervalMs);
      });
  };
  loop();
  return {
    wake() {
      if (stopping.signal.aborted) return;
      if (running) wokenMeanwhile = true;
      else loop();
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
