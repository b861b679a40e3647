/**
 * The event-store conformance suite: every adapter runs it (`eventStoreConformance('sqlite', make)`).
 * `make` is called before each test; `cleanup` after it. Test data lives in streams and
 * subscriptions named uniquely per test, so `make` may hand out a shared database.
 */
import { describeConformance } from '@parcel-logistics/conformance';
import { appendCases } from './conformance/appendCases.ts';
import { concurrencyCases } from './conformance/concurrencyCases.ts';
import { createContext, type EventStoreHarness } from './conformance/context.ts';
import { progressCases } from './conformance/progressCases.ts';
import { readCases } from './conformance/readCases.ts';
import { subscriptionCases } from './conformance/subscriptionCases.ts';

export type { EventStoreHarness } from './conformance/context.ts';

export function eventStoreConformance(name: string, make: () => Promise<EventStoreHarness>): void {
  describeConformance(`event store conformance: ${name}`, createContext(make), {
    append: appendCases,
    'expected revisions and concurrency': concurrencyCases,
    read: readCases,
    subscribeToAll: subscriptionCases,
    progress: progressCases,
  });
}
export { event, events, record, rejection, waitFor } from './conformance/context.ts';
export { appendInGroups, observed } from './conformance/commitGroups.ts';
