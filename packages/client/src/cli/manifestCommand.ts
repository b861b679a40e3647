/** `parcelctl manifest …`: end-of-day manifests: create one for a carrier, read one again, list them. */
import { writeFile } from 'node:fs/promises';
import type { ManifestResult } from '../types.ts';
import type { Command, Context } from './command.ts';
import { printJson, report, UsageError } from './output.ts';

/** Writes the documents asked for (--out: the PDF, --csv: the CSV) and prints the manifest with where they went. */
async function show(context: Context, manifest: ManifestResult): Promise<void> {
  const { out, csv } = context.options;
  if (out === undefined && csv === undefined) return printJson(manifest);
  const { pdf, csv: csvText, ...rest } = manifest;
  const written: Record<string, { file: string; bytes: number }> = {};
  if (out !== undefined) {
    const bytes = Buffer.from(pdf, 'base64');
    await writeFile(out, bytes);
    written.pdf = { file: out, bytes: bytes.length };
  }
  if (csv !== undefined) {
    await writeFile(csv, csvText, 'utf8');
    written.csv = { file: csv, bytes: Buffer.byteLength(csvText) };
  }
  printJson({ ...rest, ...written });
}

function limitOf(context: Context): number | undefined {
  const { limit } = context.options;
  if (limit !== undefined && !/^\d+$/.test(limit)) throw new UsageError('--limit takes a whole number');
  return limit === undefined ? undefined : Number(limit);
}

export const manifest: Command = {
  name: 'manifest',
  usage: 'manifest <carrier> | get <manifest-id> | list [--out <file.pdf>] [--csv <file.csv>]',
  summary: 'end-of-day manifests: close a carrier’s parcels, read one again, list them',
  details: `manifest <carrier> closes the account's parcels of the carrier (e.g. LMX) that it
registered and that no manifest holds yet (cancelled ones left out), and prints the manifest
{manifest_id, carrier, created_at, count, tracking_numbers, pdf, csv}; a parcel on a manifest can
no longer be cancelled. manifest get <manifest-id> reads one again; manifest list prints the
account's manifests, newest first, without their documents.

Options:
  --out <file.pdf>         write the PDF there (printed as {file, bytes} instead of Base64)
  --csv <file.csv>         write the CSV there
  --carrier <carrier>      list: only this carrier's
  --limit <n>              list: how many (1 to 100, default 20)
  --before <manifest-id>   list: the page after the one that ended with this id
  --idempotency-key <key>  create: the Idempotency-Key to send (default: a new UUID, the same on every retry)`,
  options: ['out', 'csv', 'carrier', 'limit', 'before', 'idempotency-key'],
  async run(context) {
    const [first, second, ...more] = context.args;
    if (first === undefined) throw new UsageError('give a carrier, get <manifest-id> or list');
    const b = context.b();
    if (first === 'list') {
      if (second !== undefined) throw new UsageError('manifest list takes no argument');
      const { carrier, before } = context.options;
      return report(await b.listManifests({ carrier, limit: limitOf(context), before }));
    }
    if (first === 'get') {
      if (second === undefined || more.length > 0) throw new UsageError('manifest get takes exactly one manifest id');
      return report(await b.getManifest(second), (m) => show(context, m));
    }
    if (second !== undefined) throw new UsageError('give exactly one carrier');
    const created = await b.createManifest(first, { idempotencyKey: context.options['idempotency-key'] });
    return report(created, (m) => show(context, m));
  },
};
