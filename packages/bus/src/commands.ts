/**
 * Typed commands over the Bus port. A service's commands are described once, as a map from each
 * command's type to its payload and its reply; requests are built from that map by one sender and
 * served by a handler table typed by it, so a command sent with the wrong payload, a handler
 * missing from the table or a handler answering the wrong reply does not compile. The maps
 * themselves belong to whoever owns the wire formats; this module knows only their shape.
 */
import { randomUUID } from 'node:crypto';
import type { Bus, Message, Unsubscribe } from './port.ts';

/** One command: what its message carries and what its handler answers. */
export interface CommandSpec {
  payload: unknown;
  reply: unknown;
}

/**
 * The commands of one topic by type. Used as a constraint (`M extends CommandMap<M>`), so that an
 * interface as well as a type alias can be a map.
 */
export type CommandMap<M> = { [T in keyof M]: CommandSpec };

/** A command type of a map (its string keys). */
export type CommandType<M> = keyof M & string;

/** A command of the map as a message carries it: its type and its payload. */
export type CommandMessage<M extends CommandMap<M>, T extends CommandType<M> = CommandType<M>> = {
  [K in T]: { type: K; payload: M[K]['payload'] };
}[T];

export interface SendOptions {
  /** How long to wait for the reply; the sender's default when left out. */
  timeoutMs?: number;
  /** The message id (the handler's command id); a fresh UUID when left out. */
  id?: string;
  /** Extra headers, such as a deadline; the bus adds its own (trace context) on top. */
  headers?: Record<string, string>;
}

/** Sends a command of the map, keyed, and resolves with its typed reply. */
export type CommandSender<M extends CommandMap<M>> = <T extends CommandType<M>>(
  type: T,
  key: string,
  payload: M[T]['payload'],
  options?: SendOptions,
) => Promise<M[T]['reply']>;

/** The request message for a named command: the one place where a command's envelope is built. */
export function commandMessage<M extends CommandMap<M>, T extends CommandType<M>>(
  type: T,
  key: string,
  payload: M[T]['payload'],
  options: Pick<SendOptions, 'id' | 'headers'> = {},
): Message<M[T]['payload']> {
  const { id = randomUUID(), headers } = options;
  return { id, key, type, payload, ...(headers ? { headers } : {}) };
}

/**
 * A sender for the commands of one topic, each request waiting `timeoutMs` for its reply unless
 * the call says otherwise: `commandSender<OrderCommands>(bus, Topics.orderCommands, 10_000)`.
 */
export function commandSender<M extends CommandMap<M>>(bus: Bus, topic: string, timeoutMs: number): CommandSender<M> {
  return (type, key, payload, options = {}) =>
    bus.request(topic, commandMessage<M, typeof type>(type, key, payload, options), {
      timeoutMs: options.timeoutMs ?? timeoutMs,
    });
}

/** What a handler knows of the message besides its payload. */
export interface CommandMeta {
  /** The message id: a command is handled once per id. */
  commandId: string;
  key: string;
  headers?: Record<string, string>;
}

/** One handler per command of the map, each answering that command's reply. */
export type CommandHandlers<M extends CommandMap<M>> = {
  [T in CommandType<M>]: (payload: M[T]['payload'], meta: CommandMeta) => Promise<M[T]['reply']>;
};

/** A request whose type has no handler in the table: the requester gets it as a remote error. */
export class UnknownCommandError extends Error {
  constructor(service: string, type: string) {
    super(`${service}: unknown command ${type}`);
    this.name = 'UnknownCommandError';
  }
}

/**
 * Serves the commands of one topic with a handler per type. The payload is trusted as the map
 * says: the senders are this workspace's own, typed by the same map. `service` names the server
 * in the error an unknown command type is refused with.
 */
export function serveCommands<M extends CommandMap<M>>(
  bus: Bus,
  topic: string,
  service: string,
  handlers: CommandHandlers<M>,
): Promise<Unsubscribe> {
  const table = handlers as Record<string, (payload: unknown, meta: CommandMeta) => Promise<unknown>>;
  return bus.handleRequests(topic, async (message) => {
    if (!Object.hasOwn(table, message.type)) throw new UnknownCommandError(service, message.type);
    const meta: CommandMeta = {
      commandId: message.id,
      key: message.key,
      ...(message.headers ? { headers: message.headers } : {}),
    };
    return table[message.type]!(message.payload, meta);
  });
}
