import { setTimeout as sleep } from 'node:timers/promises';
import { BusRemoteError, BusTimeoutError } from './port.ts';
import type { Bus, Message, Unsubscribe } from './port.ts';

export interface InProcessBusOptions {
  /** Deliveries of one message to a group before it goes to the dead-letter topic (default 5). */
  maxDeliveries?: number;
  redeliveryDelayMs?: number;
  deadLetterTopic?: string;
}

export type InProcessBus = Bus & {
  /** Resolves when no delivery is queued, running or waiting for redelivery (for tests). */
  idle(): Promise<void>;
};

type Handler = (message: Message) => Promise<unknown>;

/** A consumer group: its members take turns, and each key has its own serial queue (a "partition"). */
interface Group {
  members: Handler[];
  turn: number;
  tails: Map<string, Promise<void>>;
  arrivals: Set<() => void>;
}

const newGroup = (): Group => ({ members: [], turn: 0, tails: new Map(), arrivals: new Set() });

/** Messages and replies cross a JSON boundary, as on Kafka: no shared objects, no Dates surviving by accident. */
const wire = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/**
 * A message is serialised once, when it is sent (what the caller does with it afterwards changes
 * nothing), and each delivery parses its own copy, as a Kafka consumer would.
 */
const received = (text: string): Message => JSON.parse(text) as Message;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The embedded wiring's bus. Like a Kafka consumer group starting at "latest", a group only gets
 * messages published after it subscribed, and nothing survives the process. A request that finds
 * no handler waits for one until its timeout.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): InProcessBus {
  const maxDeliveries = options.maxDeliveries ?? 5;
  const redeliveryDelayMs = options.redeliveryDelayMs ?? 20;
  const deadLetterTopic = options.deadLetterTopic ?? 'parcel.deadletter.v1';

  const requestGroups = new Map<string, Group>();
  const topics = new Map<string, Map<string, Group>>();
  const openRequests = new Set<(error: Error) => void>();
  const stop = new AbortController();
  let closed = false;
  let pending = 0;
  let idleWaiters: Array<() => void> = [];

  const assertOpen = () => {
    if (closed) throw new Error('bus is closed');
  };

  function enqueue(group: Group, key: string, task: () => Promise<void>): void {
    pending += 1;
    // Starting behind a resolved promise keeps the handler out of the caller's synchronous call.
    const previous = group.tails.get(key) ?? Promise.resolve();
    const tail: Promise<void> = previous
      .then(() => (closed ? undefined : task()))
      .catch((error: unknown) => console.error('in-process bus: delivery failed', error))
      .finally(() => {
        if (group.tails.get(key) === tail) group.tails.delete(key);
        pending -= 1;
        if (pending === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const wake of waiters) wake();
        }
      });
    group.tails.set(key, tail);
  }

  function pick(group: Group): Handler | undefined {
    if (closed || group.members.length === 0) return undefined;
    const handler = group.members[group.turn % group.members.length];
    group.turn += 1;
    return handler;
  }

  function join(group: Group, handler: Handler, leave: () => void): Unsubscribe {
    const member: Handler = (message) => handler(message);
    group.members.push(member);
    for (const wake of group.arrivals) wake();
    return async () => {
      const at = group.members.indexOf(member);
      if (at < 0) return;
      group.members.splice(at, 1);
      if (group.members.length === 0) leave();
    };
  }

  /** The next handler of a request group, waiting for one to register unless the request is settled first. */
  async function handlerFor(group: Group, settled: Promise<unknown>): Promise<Handler | undefined> {
    const gaveUp = settled.then(
      () => true,
      () => true,
    );
    for (;;) {
      const handler = pick(group);
      if (handler || closed) return handler;
      const arrived = Promise.withResolvers<boolean>();
      const wake = () => arrived.resolve(false);
      group.arrivals.add(wake);
      const stopWaiting = await Promise.race([arrived.promise, gaveUp]);
      group.arrivals.delete(wake);
      if (stopWaiting) return undefined;
    }
  }

  async function consume(topic: string, groupName: string, group: Group, text: string): Promise<void> {
    let reason = '';
    for (let delivery = 1; delivery <= maxDeliveries; delivery += 1) {
      const handler = pick(group);
      if (!handler) return; // the group left or the bus closed: like Kafka, nobody consumes it now
      try {
        await handler(received(text));
        return;
      } catch (error) {
        reason = reasonOf(error);
      }
      if (delivery < maxDeliveries) {
        const waited = await sleep(redeliveryDelayMs, true, { signal: stop.signal }).catch(() => false);
        if (!waited) return;
      }
    }
    if (closed) return;
    const message = received(text);
    if (topic === deadLetterTopic) {
      // Dead-lettering a dead letter would loop: drop it, loudly.
      console.error(`in-process bus: dead letter ${message.id} failed in group ${groupName}: ${reason}`);
      return;
    }
    const headers = {
      ...message.headers,
      'x-dead-letter-reason': reason,
      'x-original-topic': topic,
      'x-original-group': groupName,
    };
    await bus.publish(deadLetterTopic, { ...message, headers });
  }

  const bus: InProcessBus = {
    async request<TReply>(topic: string, message: Message, { timeoutMs }: { timeoutMs: number }): Promise<TReply> {
      assertOpen();
      const sent = JSON.stringify(message);
      const { key } = message;
      const outcome = Promise.withResolvers<TReply>();
      let done = false;
      const settle = (finish: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        openRequests.delete(fail);
        finish();
      };
      const fail = (error: Error) => settle(() => outcome.reject(error));
      const timer = setTimeout(() => fail(new BusTimeoutError(topic, timeoutMs)), timeoutMs);
      openRequests.add(fail);

      let group = requestGroups.get(topic);
      if (!group) requestGroups.set(topic, (group = newGroup()));
      const target = group;
      // A request that timed out while queued still runs if a handler is there, as it would on Kafka.
      enqueue(target, key, async () => {
        const handler = await handlerFor(target, outcome.promise);
        if (!handler) return;
        try {
          const reply = wire(await handler(received(sent))) as TReply;
          settle(() => outcome.resolve(reply));
        } catch (error) {
          settle(() => outcome.reject(new BusRemoteError(reasonOf(error))));
        }
      });
      return outcome.promise;
    },

    async handleRequests(topic, handler) {
      assertOpen();
      let group = requestGroups.get(topic);
      if (!group) requestGroups.set(topic, (group = newGroup()));
      return join(group, handler, () => undefined);
    },

    async publish(topic, message) {
      assertOpen();
      // Serialised only when a group listens: nothing to copy for a topic that nobody here consumes.
      const groups = topics.get(topic);
      if (!groups?.size) return;
      const sent = JSON.stringify(message);
      const { key } = message;
      for (const [name, group] of groups) {
        enqueue(group, key, () => consume(topic, name, group, sent));
      }
    },

    async subscribe(topic, groupName, handler) {
      assertOpen();
      let groups = topics.get(topic);
      if (!groups) topics.set(topic, (groups = new Map()));
      let group = groups.get(groupName);
      if (!group) groups.set(groupName, (group = newGroup()));
      const target = group;
      return join(target, handler, () => {
        if (topics.get(topic)?.get(groupName) === target) topics.get(topic)?.delete(groupName);
      });
    },

    async ping() {
      assertOpen();
    },

    async close() {
      if (closed) return;
      closed = true;
      stop.abort();
      for (const fail of [...openRequests]) fail(new Error('bus closed before the reply arrived'));
      requestGroups.clear();
      topics.clear();
    },

    idle() {
      return pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
  return bus;
}
