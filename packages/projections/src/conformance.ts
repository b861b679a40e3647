/**
 * The projection-store conformance suite: every adapter runs it (`projectionStoreConformance('sqlite', make)`).
 * `make` is called before each test; `cleanup` after it. Ids are unique per test, so `make`
 * may hand out a shared database.
 */
import { afterEach, beforeEach, describe } from '@jest/globals';
import { createContext, type ProjectionStoreHarness } from './conformance/context.ts';
import { idempotencyCases } from './conformance/idempotencyCases.ts';
import { parcelCases } from './conformance/parcelCases.ts';
import { retentionCases } from './conformance/retentionCases.ts';
import { tokenCases } from './conformance/tokenCases.ts';

export type { ProjectionStoreHarness } from './conformance/context.ts';
export { parcelView } from './conformance/context.ts';

export function projectionStoreConformance(name: string, make: () => Promise<ProjectionStoreHarness>): void {
  describe(`projection store conformance: ${name}`, () => {
    const { context, setUp, tearDown } = createContext(make);
    beforeEach(setUp);
    afterEach(tearDown);
    describe('parcels', () => parcelCases(context));
    describe('retention', () => retentionCases(context));
    describe('tokens and lifecycle', () => tokenCases(context));
    describe('idempotency keys', () => idempotencyCases(context));
  });
}
