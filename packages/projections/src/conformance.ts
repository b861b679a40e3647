/**
 * The projection-store conformance suite: every adapter runs it (`projectionStoreConformance('sqlite', make)`).
 * `make` is called before each test; `cleanup` after it. Ids are unique per test, so `make`
 * may hand out a shared database.
 */
import { describeConformance } from '@parcel-logistics/conformance';
import { createContext, type ProjectionStoreHarness } from './conformance/context.ts';
import { idempotencyCases } from './conformance/idempotencyCases.ts';
import { manifestCases } from './conformance/manifestCases.ts';
import { parcelCases } from './conformance/parcelCases.ts';
import { retentionCases } from './conformance/retentionCases.ts';
import { tokenCases } from './conformance/tokenCases.ts';

export type { ProjectionStoreHarness } from './conformance/context.ts';
export { parcelView } from './conformance/context.ts';
export { activity, expectFormerViewsDue, formerRetentionViews } from './conformance/retentionCases.ts';

export function projectionStoreConformance(name: string, make: () => Promise<ProjectionStoreHarness>): void {
  describeConformance(`projection store conformance: ${name}`, createContext(make), {
    parcels: parcelCases,
    retention: retentionCases,
    'tokens and lifecycle': tokenCases,
    'idempotency keys': idempotencyCases,
    manifests: manifestCases,
  });
}
