/**
 * When a commit of this store tells the subscriptions of every process (NOTIFY, postgresListener.ts).
 * Each notification wakes every listening process and its PostgreSQL backend, while a woken
 * subscription reads at most one page per `coalesceMs` anyway: so a commit notifies in its own
 * transaction only when this store has sent no notification for `windowMs`. A commit inside the
 * window stays quiet; the next commit after the window announces it, and should none come, a
 * notification of its own follows one window later. Under load every notification rides on a
 * commit; no commit waits more than two windows for its notification, and the first commit after
 * a quiet spell wakes the subscriptions at once. A notification lost (the process died before it)
 * costs what any lost notification costs: latency, until the subscriptions' next poll. The
 * commits of one store are serial (one group at a time), so a commit that notifies also covers
 * the quiet ones before it.
 */
export interface CommitNotices {
  /** Whether the next commit notifies in its own transaction. */
  inline(): boolean;
  /** A commit is done, notified in its own transaction or not. */
  committed(notified: boolean): void;
  /** Sends the notification still owed, if any, and stops. */
  close(): Promise<void>;
}

export function commitNotices(notify: () => Promise<void>, windowMs: number): CommitNotices {
  let lastAt = -Infinity;
  let owed = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const send = (): Promise<void> => {
    owed = false;
    lastAt = Date.now();
    // A notification that fails is one lost: the subscriptions' poll picks the commits up.
    return notify().catch(() => undefined);
  };

  return {
    // The window starts at a notified commit, not at the attempt: a write that fails notified no one.
    inline: () => windowMs === 0 || Date.now() - lastAt >= windowMs,
    committed(notified) {
      if (notified) {
        lastAt = Date.now();
        owed = false;
        clearTimeout(timer);
        timer = undefined;
        return;
      }
      owed = true;
      if (timer || closed) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          if (owed) void send();
        },
        Math.max(0, lastAt + 2 * windowMs - Date.now()),
      );
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      if (owed) await send();
    },
  };
}
