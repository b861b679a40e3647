/**
 * The event-store conformance suite: every adapter runs it (`eventStoreConformance('sqlite', make)`).
 * `make` is called before each test; `cleanup` after it. Test data lives in streams and
 * subscriptions named uniquely per test, so `make` may hand out a shared database.
 */
import { afterEach, beforeEach, describe } from '@jest/globals';
import { appendCases } from './conformance/appendCases.ts';
import { concurrencyCases } from './conformance/concurrencyCases.ts';
import { createContext, type EventStoreHarness } from './conformance/context.ts';
import { progressCases } from './conformance/progressCases.ts';
import { readCases } from './conformance/readCases.ts';
import { subscriptionCases } from './conformance/subscriptionCases.ts';

export type { EventStoreHarness } from './conformance/context.ts';

export function eventStoreConformance(name: string, make: () => Promise<EventStoreHarness>): void {
  describe(`event store conformance: ${name}`, () => {
    const { context, setUp, tearDown } = createContext(make);
    beforeEach(setUp);
    afterEach(tearDown);
    describe('append', () => appendCases(context));
    describe('expected revisions and concurrency', () => concurrencyCases(context));
    describe('read', () => readCases(context));
    describe('subscribeToAll', () => subscriptionCases(context));
    describe('progress', () => progressCases(context));
  });
}
export { event, events, record, rejection, waitFor } from './conformance/context.ts';
export { appendInGroups, observed } from './conformance/commitGroups.ts';
