/**
 * Keeps the parcel view in step with the parcel streams. The service that appends calls it inline
 * (read-your-writes); the tracking service's subscription hands it every page of the log (repair
 * after a crash or a missed inline update). Both are safe at once: each write is a compare-and-set on the
 * stream revision, and a gap is filled from the stream itself.
 */
import {
  deserializeEvent,
  fromStoredParcelView,
  PARCEL_STREAM_PREFIX,
  parcelStreamName,
  toStoredParcelView,
} from '@parcel-logistics/contracts';
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { evolveParcelView, isParcelEvent } from '@parcel-logistics/domain';
import type { ParcelEvent, ParcelView } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { Positioned } from './handleCommand.ts';

export type PositionedEvent = Positioned<ParcelEvent>;

/** A parcel's events from revision 0 as they are in hand, and the revision its stored view is known to have. */
export interface ParcelHistory {
  trackingNumber: string;
  history: readonly PositionedEvent[];
  storedRevision: number;
}

const MAX_ATTEMPTS = 20;

export function createParcelProjector(deps: { eventStore: EventStore; views: ParcelViewStore }) {
  const { eventStore, views } = deps;

  async function eventsAfter(trackingNumber: string, revision: number, known: readonly PositionedEvent[]) {
    const usable = known.filter((e) => e.revision > revision);
    if (usable.length > 0 && usable[0]!.revision === revision + 1) return usable;
    const recorded = await eventStore.readStream(parcelStreamName(trackingNumber), { fromRevision: revision + 1 });
    return recorded.map(positioned).filter((e): e is PositionedEvent => e !== null);
  }

  /** Brings the view up to at least the given events (or to the stream's end when none are given). */
  async function project(trackingNumber: string, known: readonly PositionedEvent[] = []): Promise<void> {
    const target = known.length > 0 ? known[known.length - 1]!.revision : Infinity;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // A stream's first events (create-order) have no view to read yet: try the insert at once.
      // Should the subscription have inserted it meanwhile, the insert loses and the next round reads.
      const view = attempt === 0 && known[0]?.revision === 0 ? null : await views.get(trackingNumber);
      const current = view?.revision ?? -1;
      if (current >= target) return;
      const events = await eventsAfter(trackingNumber, current, known);
      if (events.length === 0) return;
      // The view evolves in the domain's words and is stored in the shape its readers read.
      let next: ParcelView | null = view && fromStoredParcelView(view);
      for (const e of events) next = evolveParcelView(next, e.event, e);
      if (!next || (await views.save(toStoredParcelView(next), current))) return;
    }
    throw new Error(`parcel view ${trackingNumber}: gave up after ${MAX_ATTEMPTS} concurrent updates`);
  }

  /**
   * Views from parcels' whole histories in hand (from revision 0), saved at the revisions the
   * stored views are known to have: one write for them all, no read. A parcel whose stored view is
   * elsewhere (behind, or already past) takes the general path.
   */
  async function projectHistories(parcels: readonly ParcelHistory[]): Promise<void> {
    const whole = parcels.filter((p) => p.history[0]?.revision === 0);
    const toSave = whole.map(({ history, storedRevision }) => ({
      view: parcelViewOf(history)!,
      expectedRevision: storedRevision,
    }));
    const written = toSave.length > 0 ? await views.saveMany(toSave) : [];
    const saved = new Set(whole.filter((_, i) => written[i]));
    for (const p of parcels) if (!saved.has(p)) await project(p.trackingNumber, p.history);
  }

  /**
   * Subscription page handler: the stored revisions of the page's parcels in one read, then only
   * the parcels whose view is behind are projected (one `project` each, with the page's events).
   * Where the inline projection kept up, a page costs that one read.
   */
  async function handleBatch(page: readonly RecordedEvent[]): Promise<void> {
    const byParcel = new Map<string, PositionedEvent[]>();
    for (const recorded of page) {
      const e = positioned(recorded);
      if (!e) continue;
      const trackingNumber = e.event.data.trackingNumber;
      const known = byParcel.get(trackingNumber);
      if (known) known.push(e);
      else byParcel.set(trackingNumber, [e]);
    }
    if (byParcel.size === 0) return;
    const stored = await views.revisions([...byParcel.keys()]);
    for (const [trackingNumber, known] of byParcel) {
      const current = stored.get(trackingNumber) ?? -1;
      if (current < known[known.length - 1]!.revision) await project(trackingNumber, known);
    }
  }

  return { project, projectHistories, handleBatch };
}

export type ParcelProjector = ReturnType<typeof createParcelProjector>;

/**
 * The view of a parcel from its whole history (from revision 0), in the shape the projections store
 * and the label service reads; null when the history holds no registration.
 */
export function parcelViewOf(history: readonly PositionedEvent[]): StoredParcelView | null {
  let view: ParcelView | null = null;
  for (const e of history) view = evolveParcelView(view, e.event, e);
  return view && toStoredParcelView(view);
}

function positioned(recorded: RecordedEvent): PositionedEvent | null {
  if (!recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) return null;
  const event = deserializeEvent(recorded);
  return isParcelEvent(event) ? { event, eventId: recorded.id, revision: recorded.revision } : null;
}
