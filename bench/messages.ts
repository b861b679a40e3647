/**
 * The messages each process of the stack sent, as bench/messageCounter.ts writes them (one file per
 * process, named after its OTEL_SERVICE_NAME and pid), for bench/distributed.bench.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MessageCounts } from './messageCounter.ts';
import { MONGO_MESSAGES, PG_ROUND_TRIPS } from './messageCounter.ts';
import { printColumns, round } from './support.ts';

/** Every process's totals so far, by pid. */
export function messageCounts(dir: string): Map<number, MessageCounts> {
  const counts = new Map<number, MessageCounts>();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return counts; // nothing written yet
  }
  for (const file of files) {
    const pid = Number(/-(\d+)\.json$/.exec(file)?.[1]);
    if (!pid) continue;
    try {
      counts.set(pid, JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as MessageCounts);
    } catch {
      // being rewritten: the next reading has it
    }
  }
  return counts;
}

const KAFKA_APIS = ['Produce', 'Fetch', 'OffsetCommit', 'Heartbeat'];

/**
 * Per process (named by `names`, pid to name), the messages sent between the two readings per
 * order: Kafka's Produce, Fetch, OffsetCommit and Heartbeat requests, any other Kafka request, the
 * PostgreSQL round trips and MongoDB messages; the whole stack last. Returns the rows printed.
 */
export function printMessages(
  before: Map<number, MessageCounts>,
  after: Map<number, MessageCounts>,
  orders: number,
  names: Map<number, string>,
): Record<string, Record<string, number>> {
  const columns = [...KAFKA_APIS, 'other Kafka', PG_ROUND_TRIPS, MONGO_MESSAGES];
  const column = (name: string) =>
    name === PG_ROUND_TRIPS || name === MONGO_MESSAGES || KAFKA_APIS.includes(name) ? name : 'other Kafka';
  const rows: Record<string, Record<string, number>> = {};
  const total: Record<string, number> = Object.fromEntries(columns.map((c) => [c, 0]));
  for (const [pid, name] of names) {
    const now = after.get(pid) ?? {};
    const then = before.get(pid) ?? {};
    const row: Record<string, number> = Object.fromEntries(columns.map((c) => [c, 0]));
    for (const [api, count] of Object.entries(now)) row[column(api)]! += count - (then[api] ?? 0);
    for (const c of columns) total[c]! += row[c]!;
    rows[name] = Object.fromEntries(columns.map((c) => [c, round(row[c]! / Math.max(1, orders), 2)]));
  }
  rows['the whole stack'] = Object.fromEntries(columns.map((c) => [c, round(total[c]! / Math.max(1, orders), 2)]));
  printColumns(
    ['process', ...columns],
    Object.entries(rows).map(([name, row]) => [name, ...columns.map((c) => String(row[c]))]),
  );
  return rows;
}
