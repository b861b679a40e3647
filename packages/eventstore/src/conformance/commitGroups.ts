/** Commit groups: what the `onCommit(groupSize)` tests of the SQLite and PostgreSQL stores share. */
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import type { EventStore } from '../port.ts';
import { WrongExpectedRevisionError } from '../port.ts';
import { events, rejection } from './context.ts';

/**
 * 20 appends and one refused append at once, then one alone: 22 calls, the first 21 sharing
 * groups; `sizes` (of `observed()`) then counts each call in exactly one group.
 */
export async function appendInGroups(store: EventStore, sizes: number[]): Promise<void> {
  const prefix = `grp${randomUUID().slice(0, 8)}`;
  await store.append({ streamName: `${prefix}-taken`, expectedRevision: 'no_stream', events: events(1) });
  const calls = Array.from({ length: 20 }, (_, i) =>
    store.append({ streamName: `${prefix}-${i}`, expectedRevision: 'no_stream', events: events(2) }),
  );
  const refused = rejection(
    store.append({ streamName: `${prefix}-taken`, expectedRevision: 'no_stream', events: events(1) }),
  );
  await Promise.all(calls);
  expect(await refused).toBeInstanceOf(WrongExpectedRevisionError);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(22);
  expect(Math.max(...sizes)).toBeGreaterThan(1);
}

export function observed(): { sizes: number[]; onCommit: (size: number) => void } {
  const sizes: number[] = [];
  return { sizes, onCommit: (size) => sizes.push(size) };
}
