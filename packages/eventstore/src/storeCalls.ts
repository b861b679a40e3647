/** The calls the SQL stores answer alike, around their group commit and their log reads. */
import type { AppendRequest, AppendResult, EventStore, RecordedEvent } from './port.ts';

/**
 * `append`, `appendMany` and `readAll` of a store: `submit` commits one call's requests (all or
 * none, in the store's group commit) and resolves with their results; `read` reads a page of the
 * log after a position. `open` throws once the store is closing, refusing the call.
 */
export function groupCommitCalls(
  open: () => void,
  submit: (requests: AppendRequest[]) => Promise<AppendResult[]>,
  read: (afterPosition: number, limit: number) => RecordedEvent[] | Promise<RecordedEvent[]>,
): Pick<EventStore, 'append' | 'appendMany' | 'readAll'> {
  return {
    async append(request) {
      open();
      const [result] = await submit([request]);
      return result!;
    },
    async appendMany(requests) {
      open();
      return requests.length === 0 ? [] : submit(requests);
    },
    async readAll({ afterPosition = 0, limit }) {
      open();
      return read(afterPosition, limit);
    },
  };
}
