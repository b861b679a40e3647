/**
 * End-of-day manifests of interface B (create-manifest, get-manifest, list-manifests): the
 * manifest as the read model keeps it, the requests, the answers' shapes and the messages. A
 * manifest holds nothing personal (docs/bulk.md, "End-of-day manifests").
 */
import { z } from 'zod';
import type { ManifestLine } from '@parcel-logistics/domain';
import { B } from './messages.ts';

/** A completed manifest as the projections keep it and the label service renders it. */
export interface StoredManifest {
  manifestId: string;
  clientId: string;
  carrier: string;
  /** The carrier's name, as the document prints it. */
  carrierName: string;
  /** Singapore time, ISO 8601 with offset. */
  createdAt: string;
  /** Epoch ms of `createdAt`: the order of the list, newest first. */
  createdMs: number;
  /** The parcels it holds, in the order they were closed (oldest first). */
  parcels: ManifestLine[];
}

export const Manifest = {
  /** Nothing of the account for that carrier is registered with it and not on a manifest. */
  nothingToClose: 'No parcels to close for this carrier',
  notFound: 'Manifest not found',
} as const;

/** A manifest holds at most this many parcels; more wait for the next one (docs/bulk.md). */
export const MANIFEST_MAX_PARCELS = 1000;
export const MANIFEST_LIST_DEFAULT = 20;
export const MANIFEST_LIST_MAX = 100;

const absent = (input: unknown) => input === undefined || input === null;
const isBlank = (s: string) => s.trim().length === 0;

const carrierCode = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('carrier') : B.invalid('carrier')) })
  .refine((s) => !isBlank(s), { error: B.require('carrier'), abort: true })
  .max(16, { error: B.invalid('carrier') });

export const CreateManifestRequest = z.object({
  carrier: carrierCode.meta({
    description: 'The carrier’s code, as create-order routed the parcels: `LMX` or `LMX-PU`.',
    examples: ['LMX'],
  }),
});

export const manifestIdField = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('manifest_id') : B.invalid('manifest_id')) })
  .refine((s) => !isBlank(s), { error: B.require('manifest_id'), abort: true })
  .max(64, { error: B.invalid('manifest_id') });

export const ManifestIdQuery = z.object({
  manifest_id: manifestIdField.meta({ description: 'The id create-manifest answered.' }),
});

export const ListManifestsQuery = z.object({
  carrier: z
    .string({ error: B.invalid('carrier') })
    .max(16, { error: B.invalid('carrier') })
    .optional()
    .meta({ description: 'Only this carrier’s manifests; omitted, every carrier’s.' }),
  limit: z
    .string({ error: B.invalid('limit') })
    .regex(/^[0-9]{1,3}$/, { error: B.invalid('limit') })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MANIFEST_LIST_MAX, { error: B.invalid('limit') })
    .optional()
    .meta({ description: `How many, 1 to ${MANIFEST_LIST_MAX}; ${MANIFEST_LIST_DEFAULT} when omitted.` }),
  before: manifestIdField
    .optional()
    .meta({ description: 'A manifest id of an earlier page: only the manifests created before it.' }),
});

/** A manifest in a list: what it closed, without its documents. */
export const ManifestSummary = z
  .strictObject({
    manifest_id: z.string(),
    carrier: z.string().meta({ description: 'The carrier’s code.' }),
    created_at: z.string().meta({ description: 'Singapore time, ISO 8601 with offset (+08:00).' }),
    count: z.number().int().meta({ description: 'How many parcels it closed.' }),
    tracking_numbers: z.array(z.string()).meta({ description: 'The parcels it closed, oldest first.' }),
  })
  .meta({ id: 'ManifestSummary' });

export const ManifestResult = ManifestSummary.extend({
  pdf: z.string().meta({
    description:
      'The manifest as a PDF, Base64: a Code 128 barcode of the manifest id and a table, one row per parcel.',
  }),
  csv: z.string().meta({ description: 'The manifest as CSV text (RFC 4180): a header, then one row per parcel.' }),
}).meta({ id: 'ManifestResult' });

export type ManifestSummary = z.output<typeof ManifestSummary>;
export type ManifestResult = z.output<typeof ManifestResult>;

export const manifestSummaryOf = (m: StoredManifest): ManifestSummary => ({
  manifest_id: m.manifestId,
  carrier: m.carrier,
  created_at: m.createdAt,
  count: m.parcels.length,
  tracking_numbers: m.parcels.map((p) => p.trackingNumber),
});

/** The columns of the CSV, in order. */
export const MANIFEST_CSV_HEADER = [
  'tracking_number',
  'custom_tracking_num',
  'partner_tracking_no',
  'service_type',
  'destination_country',
  'weight',
  'weight_unit',
  'pieces',
] as const;

const csvField = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The manifest's CSV: the header, then one row per parcel, CRLF line ends (RFC 4180). */
export function manifestCsv(m: StoredManifest): string {
  const rows = m.parcels.map((p) => [
    p.trackingNumber,
    p.customTrackingNum,
    p.partnerTrackingNo,
    p.serviceType,
    p.destination,
    p.weight.value,
    p.weight.unit,
    p.pieces,
  ]);
  return [MANIFEST_CSV_HEADER, ...rows].map((row) => row.map(csvField).join(',') + '\r\n').join('');
}
