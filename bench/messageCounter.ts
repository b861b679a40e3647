/**
 * Preloaded into each process of the distributed stack by bench/distributed.bench.ts with
 * BENCH_COUNT_MESSAGES=1 (`node --import`): counts the messages the process sends to the stack's
 * servers, whatever the client library, and writes the totals to BENCH_COUNT_DIR every 250 ms:
 * - Kafka requests by API (packages/bus-kafka/bench/requestCounter.ts reads the frame heads);
 * - PostgreSQL round trips: each Sync (the end of an extended-protocol query) or simple Query
 *   message; `pg` writes one message per `write` call, corked, so each message's first byte is its type;
 * - MongoDB messages: one `write` per OP_MSG.
 * Benchmark only: it wraps Node's own `net.Socket#write`, not a library's internals.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { countKafkaRequests, requestCounts } from '../packages/bus-kafka/bench/requestCounter.ts';

/** What one process sent: Kafka requests by API name, `postgres round trips`, `mongodb messages`. */
export type MessageCounts = Record<string, number>;

export const PG_ROUND_TRIPS = 'postgres round trips';
export const MONGO_MESSAGES = 'mongodb messages';

const portOf = (address: string | undefined): number | undefined => {
  if (!address) return undefined;
  const port = Number(address.split(',')[0]!.split(':').at(-1)!.split('/')[0]);
  return Number.isFinite(port) && port > 0 ? port : undefined;
};

function start(dir: string): void {
  const { PARCEL_KAFKA_BROKERS, PARCEL_PG_URL, PARCEL_MONGO_URL, OTEL_SERVICE_NAME } = process.env;
  const kafkaPort = portOf(PARCEL_KAFKA_BROKERS);
  if (kafkaPort) countKafkaRequests(new Set([kafkaPort]));
  const pgPort = PARCEL_PG_URL ? Number(new URL(PARCEL_PG_URL).port || 5432) : undefined;
  const mongoPort = PARCEL_MONGO_URL ? Number(new URL(PARCEL_MONGO_URL).port || 27017) : undefined;
  const counts: MessageCounts = {};
  const add = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    const port = this.remotePort;
    if (port !== undefined && port === pgPort && chunk instanceof Uint8Array) {
      const type = chunk[0];
      if (type === 0x53 /* S */ || type === 0x51 /* Q */) add(PG_ROUND_TRIPS);
    } else if (port !== undefined && port === mongoPort) add(MONGO_MESSAGES);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${OTEL_SERVICE_NAME ?? 'process'}-${process.pid}.json`);
  const save = () => writeFileSync(file, JSON.stringify({ ...requestCounts(), ...counts }));
  setInterval(save, 250).unref();
}

const dir = process.env.BENCH_COUNT_DIR;
if (dir) start(dir);
