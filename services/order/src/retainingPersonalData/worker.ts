/**
 * Retention by policy (docs/personal-data.md, "Retention"): every `sweepMs`, the personal data of
 * the parcels due (`retentionCutoffs`: days after the final status, at most days after creation)
 * is erased with reason retention, as a request would erase it, and the keys of import parts left
 * without their import are destroyed (importingOrders/worker.ts); then the stores' files are
 * shredded once. The time is cut into slots of `sweepMs`; of the instances of the order service, the one whose
 * claim creates the slot's housekeeping stream (appended with `no_stream`, which every event store
 * adapter enforces) sweeps it, the others skip it. A sweep that dies half-way leaves its parcels due:
 * the next slot's sweep takes them.
 */
import type { Settings } from '@parcel-logistics/config';
import { retentionSweepStreamName, RetentionSweepEventTypes } from '@parcel-logistics/contracts';
import { retentionCutoffs } from '@parcel-logistics/domain';
import type { RetentionPolicy } from '@parcel-logistics/domain';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { ErasureDueQuery, ParcelViewStore } from '@parcel-logistics/projections';
import { erasePersonalData } from '../erasingPersonalData/handler.ts';
import { destroyAbandonedParts } from '../importingOrders/worker.ts';
import type { ErasePersonalDataDeps } from '../erasingPersonalData/handler.ts';

/** How many due parcels one read of the views asks for. */
export const RETENTION_PAGE = 100;

export interface RetentionSettings extends RetentionPolicy {
  /** The sweep's period, and the length of the slots each swept once. */
  sweepMs: number;
}

/** The sweep's settings from the configuration (PARCEL_PERSONAL_DATA_RETENTION_DAYS, _MAX_DAYS, PARCEL_RETENTION_SWEEP_MS). */
export const retentionSettingsOf = ({
  retentionDays,
  maxDays,
  sweepMs,
}: Settings['personalData']): RetentionSettings => ({
  afterFinalDays: retentionDays,
  maxDays,
  sweepMs,
});

export type RetentionSweepDeps = ErasePersonalDataDeps & {
  views: ParcelViewStore;
  retention: RetentionSettings;
  /** The accounts with a retention after the final status of their own (client id → days; the operator API's `retentionDays`). */
  accountRetention?: () => ReadonlyMap<string, number>;
  /** An erasure that failed (its parcel stays due), or a sweep that could not run. */
  onRetentionError?: (error: unknown, trackingNumber?: string) => void;
  /** What each sweep that ran did (not called for a slot another instance swept). */
  onRetentionSweep?: (sweep: RetentionSweep) => void;
};

export interface RetentionSweep {
  streamName: string;
  erased: number;
  failed: number;
  /** Keys destroyed of import parts whose import was never recorded. */
  abandonedParts: number;
}

/** The slot `now` falls in: its start, a multiple of `sweepMs`. */
export function sweepSlot(now: Date, sweepMs: number): Date {
  return new Date(Math.floor(now.getTime() / sweepMs) * sweepMs);
}

/**
 * One sweep at the clock's time: null when another instance claimed its slot already. `failed`
 * holds the numbers whose erasure failed in this instance's earlier sweeps: an erasure may fail
 * after its event (the key's destruction), when its view is due no more, so they are erased again
 * first (a no-op but for the key), whoever sweeps the slot. Numbers that fail are added to it.
 */
export async function sweepRetention(
  deps: RetentionSweepDeps,
  failed: Set<string> = new Set(),
): Promise<RetentionSweep | null> {
  const now = deps.clock.now();
  const slotStart = sweepSlot(now, deps.retention.sweepMs);
  const streamName = retentionSweepStreamName(slotStart);
  const cutoffs = retentionCutoffs(deps.retention, now);
  let erased = 0;
  let failures = 0;
  const erase = async (trackingNumber: string) => {
    try {
      const commandId = `${streamName}/${trackingNumber}`;
      const done = await erasePersonalData(deps, trackingNumber, { reason: 'retention', commandId });
      failed.delete(trackingNumber);
      if (done) erased++;
    } catch (error) {
      failures++;
      failed.add(trackingNumber);
      deps.onRetentionError?.(error, trackingNumber);
    }
  };
  for (const trackingNumber of [...failed]) await erase(trackingNumber);
  try {
    await deps.eventStore.append({
      streamName,
      expectedRevision: 'no_stream',
      events: [
        {
          id: deps.ids.eventId(),
          type: RetentionSweepEventTypes.claimed,
          data: {
            slotStart: slotStart.toISOString(),
            sweptAt: now.toISOString(),
            createdBefore: cutoffs.createdBefore.toISOString(),
            finalBefore: cutoffs.finalBefore.toISOString(),
          },
        },
      ],
    });
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) {
      if (erased > 0) await deps.personalData.shred();
      return null;
    }
    throw error;
  }
  // Each number once per sweep: a view not yet showing its erasure (a lagging projection) is not
  // asked again, and a page of such views alone ends the sweep.
  const seen = new Set<string>();
  for (const query of dueQueries(deps, now, cutoffs)) {
    for (;;) {
      const page = (await deps.views.dueForErasure({ ...query, limit: RETENTION_PAGE })).filter((tn) => !seen.has(tn));
      if (page.length === 0) break;
      for (const trackingNumber of page) {
        seen.add(trackingNumber);
        await erase(trackingNumber);
      }
    }
  }
  const abandonedParts = await destroyAbandonedParts(deps);
  if (erased > 0 || abandonedParts > 0) await deps.personalData.shred();
  await deps.eventStore.append({
    streamName,
    expectedRevision: 0,
    events: [{ id: deps.ids.eventId(), type: RetentionSweepEventTypes.finished, data: { erased, failed: failures } }],
  });
  return { streamName, erased, failed: failures, abandonedParts };
}

/**
 * What is due: the parcels of the accounts without a retention of their own by the service's
 * cut-offs, then those of each account with one (grouped by their days) by its own; the cap of
 * days after creation is the service's for all.
 */
function dueQueries(
  deps: RetentionSweepDeps,
  now: Date,
  cutoffs: { createdBefore: Date; finalBefore: Date },
): Omit<ErasureDueQuery, 'limit'>[] {
  const own = deps.accountRetention?.() ?? new Map<string, number>();
  if (own.size === 0) return [cutoffs];
  const byDays = new Map<number, string[]>();
  for (const [clientId, days] of own) byDays.set(days, [...(byDays.get(days) ?? []), clientId]);
  return [
    { ...cutoffs, clients: { except: [...own.keys()] } },
    ...[...byDays].map(([days, clientIds]) => ({
      ...retentionCutoffs({ ...deps.retention, afterFinalDays: days }, now),
      clients: { only: clientIds },
    })),
  ];
}

/** Sweeps at start and then `sweepMs` after each sweep ends, never two at once; `stop` lets the sweep under way finish. */
export function startRetentionWorker(deps: RetentionSweepDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const failed = new Set<string>();
  const run = () => {
    running = sweepRetention(deps, failed)
      .then((sweep) => {
        if (sweep) deps.onRetentionSweep?.(sweep);
      })
      .catch((error: unknown) => deps.onRetentionError?.(error))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, deps.retention.sweepMs);
      });
  };
  run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
