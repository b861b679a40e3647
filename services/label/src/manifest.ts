/**
 * The end-of-day manifest as a PDF (create-manifest, get-manifest): a header with the carrier, the
 * manifest's id as a Code 128 barcode and in text, then a table with one row per parcel and the
 * totals. A4, as many pages as the table needs. Nothing personal is on it (docs/bulk.md).
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { StoredManifest } from '@parcel-logistics/contracts';
import type { BarcodeImage } from './barcodes.ts';

/** Points per barcode module: 1 pt is about 2.8 pixels at 200 dpi, plenty for a scanner. */
const MODULE_PT = 1.2;
const BARCODE_HEIGHT_PT = 48;

const HEADER = ['#', 'Tracking number', 'Reference', 'Carrier number', 'Service', 'Dest.', 'Weight', 'Pieces'];

const round = (n: number) => Math.round(n * 1000) / 1000;

export function manifestDoc(manifest: StoredManifest, code128: BarcodeImage): TDocumentDefinitions {
  const rows = manifest.parcels.map((p, i) => [
    String(i + 1),
    p.trackingNumber,
    p.customTrackingNum,
    p.partnerTrackingNo,
    p.serviceType,
    p.destination,
    `${p.weight.value} ${p.weight.unit}`,
    String(p.pieces),
  ]);
  const pieces = manifest.parcels.reduce((sum, p) => sum + p.pieces, 0);
  const weights = new Map<string, number>();
  for (const p of manifest.parcels) weights.set(p.weight.unit, (weights.get(p.weight.unit) ?? 0) + p.weight.value);
  const totalWeight = [...weights].map(([unit, value]) => `${round(value)} ${unit}`).join(' + ');
  const content: Content[] = [
    { text: 'End-of-day manifest', fontSize: 16, bold: true },
    { text: `${manifest.carrierName} (${manifest.carrier})`, fontSize: 11, margin: [0, 4, 0, 0] },
    { text: `Created ${manifest.createdAt} (Singapore time)`, margin: [0, 2, 0, 0] },
    {
      image: code128.dataUri,
      width: code128.widthModules * MODULE_PT,
      height: BARCODE_HEIGHT_PT,
      margin: [0, 10, 0, 2],
    },
    { text: `Manifest ${manifest.manifestId}`, bold: true, margin: [0, 0, 0, 10] },
    {
      table: {
        headerRows: 1,
        widths: ['auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'],
        body: [HEADER.map((text) => ({ text, bold: true })), ...rows],
      },
      layout: 'lightHorizontalLines',
    },
    {
      text: `${manifest.parcels.length} parcels, ${pieces} pieces, ${totalWeight}`,
      bold: true,
      margin: [0, 8, 0, 0],
    },
  ];
  return {
    pageSize: 'A4',
    pageMargins: 36,
    info: { title: `Manifest ${manifest.manifestId}`, creator: 'parcel-label', producer: 'pdfmake' },
    defaultStyle: { font: 'Sans', fontSize: 8 },
    content,
  };
}
