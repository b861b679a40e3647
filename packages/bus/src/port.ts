/** Message bus port: commands with request/reply, and events published to topics for consumer groups. */

export interface Message<T = unknown> {
  /** Unique per message; consumers de-duplicate by it (delivery is at least once). */
  id: string;
  /** Partition key: messages with one key are delivered in order to one consumer. */
  key: string;
  type: string;
  /** JSON. `null` makes a published message a tombstone (`Tombstone`). */
  payload: T;
  /** Propagated context such as `traceparent`. */
  headers?: Record<string, string>;
}

/**
 * A tombstone: the message that deletes its key from a compacted topic, published like any other.
 * On Kafka it is a record with a null value (compaction later removes the key's earlier records,
 * and then the tombstone itself); every bus delivers it to subscribers with `payload: null`.
 */
export type Tombstone = Message<null>;

/** The tombstone of `key`. */
export const tombstone = (key: string, id: string, type: string, headers?: Record<string, string>): Tombstone => ({
  id,
  key,
  type,
  payload: null,
  ...(headers ? { headers } : {}),
});

export class BusTimeoutError extends Error {
  constructor(topic: string, timeoutMs: number) {
    super(`no reply on ${topic} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

/** The handler of a request threw: the requester gets this instead of a reply. */
export class BusRemoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BusRemoteError';
  }
}

export type Unsubscribe = () => Promise<void>;

export interface Bus {
  /** Sends a command and waits for the handler's reply. */
  request<TReply>(topic: string, message: Message, options: { timeoutMs: number }): Promise<TReply>;
  /** Serves requests on a topic; the returned value is the reply. Handlers of one key run one at a time. */
  handleRequests(topic: string, handler: (message: Message) => Promise<unknown>): Promise<Unsubscribe>;
  /** Resolves once the bus has accepted the message durably (at least once). A `Tombstone` is published the same way. */
  publish(topic: string, message: Message): Promise<void>;
  /**
   * Each group receives every message of the topic once or more; within a group one consumer handles it.
   * A handler that throws gets the message again (up to a limit, then it goes to the dead-letter topic).
   */
  subscribe(topic: string, group: string, handler: (message: Message) => Promise<void>): Promise<Unsubscribe>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
