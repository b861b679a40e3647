/** What the routes that answer from the parcel view share: the view they reach, and looking up many numbers. */
import { Remarks, type StoredParcelView } from '@parcel-logistics/contracts';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { Mounting } from './context.ts';

/** What a route answering from the parcel view reaches. */
export interface ParcelViewDeps extends Mounting {
  projections: Pick<ProjectionStore, 'parcels'>;
}

/**
 * Every number among the client's parcels, in submission order: the record of each one found,
 * and the error of each one with no record (Remarks.noRecord, in the interface's words).
 */
export async function lookUpEach<R, E>(
  ctx: ParcelViewDeps,
  clientId: string,
  numbers: readonly string[],
  recordOf: (view: StoredParcelView) => R,
  noRecord: (number: string, remarks: string) => E,
): Promise<{ records: R[]; errors: E[] }> {
  const found = await ctx.projections.parcels.getManyForClient(clientId, numbers);
  const records: R[] = [];
  const errors: E[] = [];
  for (const n of numbers) {
    const view = found.get(n);
    if (view) records.push(recordOf(view));
    else errors.push(noRecord(n, Remarks.noRecord));
  }
  return { records, errors };
}
