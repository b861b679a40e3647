/**
 * The one-time migration of a store written before personal values were sealed (docs/personal-data.md):
 * every event of a former version that holds personal values in clear is upcast and sealed in
 * place with its stream's key, then the store's files are wiped of the former bytes (if any), and the
 * migration is recorded so that it runs once. A parcel erased before it ran (its key destroyed,
 * or never made) keeps only the clear part of its events.
 */
import { FORMER_PERSONAL_TYPES, sealFormer } from '@parcel-logistics/contracts';
import type { EventRewriter } from '@parcel-logistics/eventstore';
import { seal, type KeyStore } from '@parcel-logistics/keys';

export const SEAL_FORMER_EVENTS = 'seal-personal-data';

const PAGE = 500;

/** Runs the migration unless it ran; resolves with the number of events it sealed (0 when it had run). */
export async function sealFormerEvents(rewriter: EventRewriter, keys: KeyStore): Promise<number> {
  if (await rewriter.ran(SEAL_FORMER_EVENTS)) return 0;
  let after = 0;
  let sealed = 0;
  for (;;) {
    const page = await rewriter.page(FORMER_PERSONAL_TYPES, after, PAGE);
    if (page.length === 0) break;
    const rewrites = [];
    for (const event of page) {
      const created = await keys.create(event.streamName);
      const key = created.status === 'erased' ? undefined : created.key.key;
      const stored = sealFormer(
        event.streamName,
        { type: event.type, data: event.data as Record<string, unknown> },
        (p, aad) => (key ? seal(key, p, aad) : undefined),
      );
      rewrites.push({ id: event.id, type: stored.type, data: stored.data });
    }
    await rewriter.rewrite(rewrites);
    sealed += rewrites.length;
    after = page.at(-1)!.globalPosition;
  }
  // Nothing rewritten, nothing to wipe. On PostgreSQL the wipe is a VACUUM, and a VACUUM of the
  // empty log of a new deployment would record it as empty: every plan made on it until the next
  // ANALYZE would then scan the whole table (the append's read of the log's head, each time).
  if (sealed > 0) await rewriter.shred();
  await rewriter.record(SEAL_FORMER_EVENTS, { sealed });
  return sealed;
}
