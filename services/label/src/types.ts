import type { StoredManifest, StoredParcelView } from '@parcel-logistics/contracts';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export type LabelFormatName = '100x150mm' | 'A6' | '4x6in';

export interface LabelFormat {
  name: LabelFormatName;
  widthPt: number;
  heightPt: number;
}

export type Cn23Direction = 'horizontal' | 'vertical';

/** Width in points of `text` set at `sizePt`. */
export type TextMeasure = (text: string, sizePt: number, bold: boolean) => number;

export interface PartyModel {
  name: string;
  address: string;
  /** City, state, postal code and country. */
  place: string;
  phone: string;
}

/**
 * Everything a shipping label shows, as display strings (one line each, control characters
 * removed, not yet cut to fit). PDF, HTML and ZPL are all drawn from this and nothing else.
 */
export interface LabelModel {
  format: LabelFormat;
  /** BCP 47 language of the destination, used to pick CJK glyph variants. */
  lang: string;
  /** Destination country code. */
  country: string;
  trackingNumber: string;
  carrier: string;
  /** Service type code and name, e.g. `LMD Last-mile delivery`. */
  service: string;
  /** Service code and name, e.g. `SGN Next day`; empty when the order has none. */
  serviceCode: string;
  /** Order date, YYYY-MM-DD (Singapore time). */
  date: string;
  recipient: PartyModel;
  sender: PartyModel;
  /** Country code and postal code of the destination, printed large. */
  destination: string;
  /** Weight with its unit, e.g. `1.25 kg`. */
  weight: string;
  /** Dimensions, e.g. `30 x 20 x 10 cm`. */
  size: string;
  /** Cash-on-delivery amount with currency; absent when the order has no `cash`. */
  cod?: string;
  locker?: { station: string; address: string };
  reference: string;
  instruction: string;
}

export interface LaidText {
  x: number;
  y: number;
  w: number;
  sizePt: number;
  bold: boolean;
  text: string;
  align: 'left' | 'center';
  /** White on black. */
  inverse: boolean;
}

export interface LaidRule {
  x: number;
  y: number;
  w: number;
}

export interface LaidBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LaidBarcode {
  kind: 'code128' | 'qr';
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The label placed on its page, in points from the top left corner. Every renderer draws
 * exactly these elements, so the three formats show the same lines at the same places.
 */
export interface LabelLayout {
  format: LabelFormat;
  lang: string;
  country: string;
  barcodeData: string;
  texts: LaidText[];
  rules: LaidRule[];
  boxes: LaidBox[];
  barcodes: LaidBarcode[];
}

export interface Cn23Party {
  name: string;
  address: string;
  place: string;
  phone: string;
  email: string;
}

export interface Cn23Item {
  description: string;
  quantity: string;
  netWeightKg: string;
  value: string;
  hsCode: string;
  origin: string;
}

export interface Cn23Model {
  lang: string;
  country: string;
  trackingNumber: string;
  carrier: string;
  sender: Cn23Party;
  addressee: Cn23Party;
  items: Cn23Item[];
  totalQuantity: string;
  totalNetWeightKg: string;
  totalGrossWeightKg: string;
  totalValue: string;
  category: Cn23Category;
  incoterm: string;
  reference: string;
  gst: string;
  date: string;
  signature: string;
}

export const CN23_CATEGORIES = [
  'Gift',
  'Commercial sample',
  'Documents',
  'Returned goods',
  'Sale of goods',
  'Other',
] as const;
export type Cn23Category = (typeof CN23_CATEGORIES)[number];

/** What the labels take from the reference data (names of service types, service codes, carriers). */
export type LabelReference = Pick<ReferenceData, 'defaultServiceType' | 'serviceTypes' | 'serviceCodes' | 'carriers'>;

/** One label to render, in the formats of the bus's RenderLabel command. */
export type LabelJob =
  | { format: 'cn23'; view: StoredParcelView; direction: Cn23Direction }
  | { format: 'pdf' | 'html' | 'zpl'; view: StoredParcelView }
  /** An end-of-day manifest's PDF (RenderManifest). */
  | { format: 'manifest'; manifest: StoredManifest };

/**
 * Many shipping labels in one document, in the order given: a PDF whose `sheet` is one label a
 * 4 x 6 in page or four an A4 page, or ZPL with one `^XA … ^XZ` per label.
 */
export type LabelsJob =
  | { format: 'pdf'; sheet: 'label' | 'a4-4up'; views: readonly StoredParcelView[] }
  | { format: 'zpl'; views: readonly StoredParcelView[] };

export interface LabelRenderer {
  cn23Pdf(view: StoredParcelView, direction: Cn23Direction): Promise<Buffer>;
  shippingLabelPdf(view: StoredParcelView): Promise<Buffer>;
  shippingLabelHtml(view: StoredParcelView): string;
  shippingLabelZpl(view: StoredParcelView): string;
  manifestPdf(manifest: StoredManifest): Promise<Buffer>;
  labelFormatFor(view: StoredParcelView): LabelFormat;
  /**
   * Renders as RenderLabel's reply carries it: Base64 for the PDFs, the document itself for HTML
   * and ZPL. A failed render rejects with the same error as the methods above.
   */
  render(job: LabelJob): Promise<string>;
  /** Renders many labels into one document, as RenderLabels' reply carries it (Base64 for the PDF). */
  renderMany(job: LabelsJob): Promise<string>;
  /** Font files loaded at start, by family. */
  readonly fonts: Readonly<Record<string, string>>;
}

export interface LabelRendererOptions {
  ref: LabelReference;
  /** Folder searched (recursively) for the label fonts; default `/usr/share/fonts`. */
  fontsDir?: string;
  /**
   * Encoded barcodes kept per tracking number, least recently used dropped first (a parcel's
   * label is typically fetched in more than one format, and reprinted). 0 disables. Default 1024.
   */
  barcodeCacheSize?: number;
}
