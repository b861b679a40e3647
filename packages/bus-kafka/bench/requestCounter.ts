/**
 * Counts the Kafka requests this process sends, by API, whatever the client library: every
 * request is one size-prefixed frame (int32 size, then int16 api key) on a socket to the broker,
 * and both kafkajs and @platformatic/kafka write through `net.Socket#write`. Benchmark only: it
 * wraps Node's own socket method, not a library's internals, and parses nothing but frame heads.
 */
import net from 'node:net';

/** Kafka API keys the bus uses, by name; anything else is counted under its number. */
const apiNames: Record<number, string> = {
  0: 'Produce',
  1: 'Fetch',
  2: 'ListOffsets',
  3: 'Metadata',
  8: 'OffsetCommit',
  9: 'OffsetFetch',
  10: 'FindCoordinator',
  11: 'JoinGroup',
  12: 'Heartbeat',
  13: 'LeaveGroup',
  14: 'SyncGroup',
  15: 'DescribeGroups',
  16: 'ListGroups',
  18: 'ApiVersions',
  19: 'CreateTopics',
  22: 'InitProducerId',
  32: 'DescribeConfigs',
  60: 'DescribeCluster',
};

interface FrameState {
  /** Bytes of the current frame still to come. */
  remaining: number;
  /** The first bytes of the next frame's head, when a write cut it. */
  head: Buffer;
}

const counts = new Map<string, number>();
const states = new WeakMap<net.Socket, FrameState>();

function count(socket: net.Socket, chunk: Buffer): void {
  let state = states.get(socket);
  if (!state) states.set(socket, (state = { remaining: 0, head: Buffer.alloc(0) }));
  let at = 0;
  while (at < chunk.length) {
    if (state.remaining > 0) {
      const skip = Math.min(state.remaining, chunk.length - at);
      state.remaining -= skip;
      at += skip;
      continue;
    }
    const needed = 6 - state.head.length;
    const take = chunk.subarray(at, at + needed);
    state.head = Buffer.concat([state.head, take]);
    at += take.length;
    if (state.head.length < 6) break;
    const size = state.head.readInt32BE(0);
    const api = state.head.readInt16BE(4);
    const name = apiNames[api] ?? `api${api}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    state.remaining = size - 2; // the api key is read already
    state.head = Buffer.alloc(0);
  }
}

export function countKafkaRequests(brokerPorts: Set<number>): void {
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (this.remotePort !== undefined && brokerPorts.has(this.remotePort)) {
      if (Buffer.isBuffer(chunk)) count(this, chunk);
      else if (typeof chunk === 'string')
        count(this, Buffer.from(chunk, (typeof rest[0] === 'string' ? rest[0] : 'utf8') as BufferEncoding));
      else if (chunk instanceof Uint8Array) count(this, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
}

export const requestCounts = (): Record<string, number> => Object.fromEntries(counts);
