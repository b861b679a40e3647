/** The group-commit observer hook of the SQLite and PostgreSQL stores (`onCommit`), for metrics. */
export type GroupObserver = (groupSize: number) => void;

/** Tells the observer; an observer never breaks a commit, so a throw is ignored. */
export function observeGroup(observer: GroupObserver | undefined, groupSize: number): void {
  try {
    observer?.(groupSize);
  } catch {
    // ignored: the commit is done whatever the observer does
  }
}
