/**
 * The event store as every service sees it: personal values sealed on the way in and opened on the
 * way out, with the key of their stream from the key store (docs/personal-data.md). It wraps any
 * event-store adapter without changing how that adapter stores events: the adapter only ever holds
 * the sealed versions (packages/contracts/src/sealedEvents.ts). Once a stream's key is destroyed,
 * its events read as their clear parts, everywhere at once.
 */
import {
  holdsPersonalData,
  isSealed,
  openStored,
  parcelStreamName,
  sealedTypeOf,
  sealStored,
} from '@parcel-logistics/contracts';
import { subscribeWrapped } from '@parcel-logistics/eventstore';
import type { AppendRequest, EventStore, EventToAppend, RecordedEvent } from '@parcel-logistics/eventstore';
import { seal, unseal, type CachedKeyStore, type KeyStore } from '@parcel-logistics/keys';
import type { KeyObject } from 'node:crypto';
import type { Ids } from './ids.ts';

/**
 * How many opened events are kept, so that the subscriptions of a process open each event once:
 * they take the same page of the log within moments of each other, so a few pages' worth is enough,
 * and more would only keep garbage alive.
 */
const OPENED_KEPT = 512;

/**
 * How many of the personal values this process sealed are kept in clear, by their sealed form, and
 * for how long: the process's own subscriptions read its new events back within moments, and
 * opening one it has just sealed then takes no key look-up and no decryption. A few pages of the
 * log's worth: whatever is kept outlives a scavenge and is promoted, so more would cost the garbage
 * collector more than the decryptions it saves a lagging subscription. The age bound keeps this
 * no longer than the key cache keeps the key (a destroy by another process is seen there).
 */
const SEALED_KEPT = 256;
const SEALED_KEPT_MS = 5_000;

export interface SealingEventStore extends EventStore {
  /** The key store behind it (erasure destroys keys there). */
  readonly keys: KeyStore;
  /**
   * Destroys a stream's key (idempotent): its sealed values can no longer be read anywhere, and
   * what this process opened of it is forgotten.
   */
  destroyKey(streamName: string): Promise<void>;
  /** Forgets what it opened of a stream, and its cached key (after its key was destroyed). */
  forget(streamName: string): void;
}

/** The erasure event: what this process opened of its stream, and the stream's cached key, are dropped as it passes. */
const ERASED_TYPE = 'PersonalDataErased.v1';

export function sealingEventStore(store: EventStore, keys: KeyStore | CachedKeyStore): SealingEventStore {
  const forget = (streamName: string) => {
    for (const [id, e] of opened) if (e.streamName === streamName) opened.delete(id);
    for (const [sealed, p] of sealedHere) if (p.streamName === streamName) sealedHere.delete(sealed);
    if ('evict' in keys) keys.evict(streamName);
  };
  /** Opened events by id, oldest first: pages are handed to several subscriptions of the process. */
  const opened = new Map<string, RecordedEvent>();
  /** What this process sealed, in clear, by its sealed form, with its stream and sealed type (the binding), oldest first. */
  const sealedHere = new Map<string, { streamName: string; type: string; plain: string; at: number }>();
  /** A stored event's personal values in clear if this process sealed them moments ago, for the same stream and type. */
  const sealedInClear = (e: RecordedEvent): string | undefined => {
    const sealed = (e.data as { sealed?: unknown }).sealed;
    if (typeof sealed !== 'string') return undefined;
    const p = sealedHere.get(sealed);
    return p && p.streamName === e.streamName && p.type === e.type && Date.now() - p.at <= SEALED_KEPT_MS
      ? p.plain
      : undefined;
  };

  /**
   * Seals with the stream's key, made on its first event. A stream whose key was destroyed keeps
   * nothing personal from then on: its events are stored as their clear part (the decider already
   * leaves them nothing personal; this holds whatever it decides).
   */
  async function sealRequest(request: AppendRequest): Promise<AppendRequest> {
    if (!request.events.some((e) => holdsPersonalData(e.type))) return request;
    const created = await keys.create(request.streamName);
    const key = created.status === 'erased' ? undefined : created.key.key;
    const events = request.events.map((e): EventToAppend => {
      if (!holdsPersonalData(e.type)) return e;
      const sealedType = sealedTypeOf(e.type)!;
      const stored = sealStored(
        request.streamName,
        { type: e.type, data: e.data as Record<string, unknown> },
        (p, aad) => {
          if (!key) return undefined;
          const sealed = seal(key, p, aad);
          sealedHere.set(sealed, { streamName: request.streamName, type: sealedType, plain: p, at: Date.now() });
          if (sealedHere.size > SEALED_KEPT) sealedHere.delete(sealedHere.keys().next().value!);
          return sealed;
        },
      );
      return { ...e, type: stored.type, data: stored.data };
    });
    return { ...request, events };
  }

  /** Whether a page holds anything to open or to forget: most pages of the log hold neither. */
  const touches = (e: RecordedEvent): boolean => e.type === ERASED_TYPE || isSealed(e.type);

  async function open(events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
    const wanted = new Set<string>();
    /** Events of the page this process sealed moments ago, by id: their clear text is the one sealed. */
    let inClear: Map<string, { streamName: string; plain: string }> | undefined;
    for (const e of events) {
      if (e.type === ERASED_TYPE) {
        forget(e.streamName);
        // Those of its stream are opened as any other: with the key the store still holds, if any.
        if (inClear)
          for (const [id, c] of inClear)
            if (c.streamName === e.streamName) {
              inClear.delete(id);
              wanted.add(e.streamName);
            }
      } else if (isSealed(e.type) && !opened.has(e.id)) {
        const plain = sealedInClear(e);
        if (plain === undefined) wanted.add(e.streamName);
        else (inClear ??= new Map()).set(e.id, { streamName: e.streamName, plain });
      }
    }
    if (wanted.size === 0 && inClear === undefined) return events.map((e) => opened.get(e.id) ?? e);
    const found = wanted.size === 0 ? undefined : await keys.find([...wanted]);
    return events.map((e) => {
      if (!isSealed(e.type)) return e;
      const known = opened.get(e.id);
      if (known) return known;
      const plain = inClear?.get(e.id)?.plain;
      const key: KeyObject | undefined = plain === undefined ? found?.get(e.streamName)?.key : undefined;
      const stored = openStored(e.streamName, e, (sealed, aad) =>
        plain !== undefined ? plain : key ? unseal(key, sealed, aad) : undefined,
      );
      const read: RecordedEvent = { ...e, type: stored.type, data: stored.data };
      if (plain !== undefined || key) remember(read);
      return read;
    });
  }

  function remember(event: RecordedEvent) {
    opened.set(event.id, event);
    if (opened.size > OPENED_KEPT) opened.delete(opened.keys().next().value!);
  }

  return {
    keys,
    forget,
    async destroyKey(streamName) {
      await keys.destroy(streamName);
      forget(streamName);
    },
    append: async (request) => store.append(await sealRequest(request)),
    appendMany: async (requests) => store.appendMany(await Promise.all(requests.map(sealRequest))),
    readStream: async (streamName, options) => open(await store.readStream(streamName, options)),
    readAll: async (options) => open(await store.readAll(options)),
    subscribeToAll: (options) =>
      subscribeWrapped(store, options, {
        handleBatch: (handleBatch) => async (events) => handleBatch(events.some(touches) ? await open(events) : events),
        handler: (handler) => async (event) => handler(touches(event) ? (await open([event]))[0]! : event),
      }),
    ...(store.progress ? { progress: store.progress.bind(store) } : {}),
    ping: async () => {
      await Promise.all([store.ping(), keys.ping()]);
    },
    close: async () => {
      await Promise.allSettled([store.close(), keys.close()]);
    },
  };
}

/** What erasure does beyond its event: destroys the stream's key, then wipes the stores' files as far as each can. */
export interface PersonalDataShredder {
  /** Destroys the stream's key (idempotent). */
  destroyKey(streamName: string): Promise<void>;
  /** Wipes what the process's files may still hold of erased values (secure delete, WAL checkpoints, vacuum). */
  shred(): Promise<void>;
  /** The streams whose names start with `prefix` and still have a key, in name order. */
  keyedStreams(prefix: string): AsyncIterable<string>;
}

/** Keys read from the key store at a time by `keyedStreams`. */
const KEY_PAGE = 500;

/** The shredder of a sealing event store, its key store and the other stores that held the erased values. */
export const personalDataShredder = (
  store: SealingEventStore,
  ...stores: readonly { shred(): Promise<void> }[]
): PersonalDataShredder => ({
  destroyKey: (streamName) => store.destroyKey(streamName),
  shred: async () => {
    for (const s of [store.keys, ...stores]) await s.shred();
  },
  async *keyedStreams(prefix) {
    for (let after = prefix; ;) {
      const page = await store.keys.list({ after, limit: KEY_PAGE });
      for (const key of page) {
        if (!key.parcelId.startsWith(prefix)) return;
        if (key.state === 'active') yield key.parcelId;
      }
      if (page.length < KEY_PAGE) return;
      after = page.at(-1)!.parcelId;
    }
  },
});

export interface KeyedIdsOptions {
  /** Tracking numbers kept with their keys made (default 256); more are made when half are used. */
  pool?: number;
  onError?: (error: unknown) => void;
}

/**
 * Tracking numbers drawn ahead, each with its parcel's key already made: a new parcel's key is
 * then made durable with many others in one write of the key store, away from the order's path,
 * instead of one write per order on it (the order's first event finds its key in the key cache).
 * A number drawn from an empty pool is a fresh one, whose key is made as its first event is sealed.
 * Keys of numbers never used (at a stop) seal nothing and identify no one.
 */
export function keyedIds(ids: Ids, keys: KeyStore, options: KeyedIdsOptions = {}): Ids {
  const size = options.pool ?? 256;
  const ready: string[] = [];
  let filling = false;
  const fill = () => {
    if (filling || ready.length >= size / 2) return;
    filling = true;
    const drawn = Array.from({ length: size - ready.length }, () => ids.trackingNumber());
    Promise.all(drawn.map(async (tn) => ((await keys.create(parcelStreamName(tn))).status === 'created' ? tn : null)))
      .then((made) => ready.push(...made.filter((tn): tn is string => tn !== null)))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        filling = false;
      });
  };
  return {
    eventId: () => ids.eventId(),
    trackingNumber() {
      const tn = ready.pop();
      fill();
      return tn ?? ids.trackingNumber();
    },
  };
}
