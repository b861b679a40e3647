/**
 * CN 23 customs declaration on A4: portrait for Direction `vertical`, landscape for
 * `horizontal`. The items table flows onto further pages (its header repeated) when an order
 * has more items than one page holds.
 */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { Barcodes } from './barcodes.ts';
import { dateOf, langFor, placeOf, recipientOf, senderOf, type OrderParty } from './model.ts';
import type { PdfEngine } from './pdf.ts';
import { clean, fitLines, money, num } from './text.ts';
import {
  CN23_CATEGORIES,
  type Cn23Category,
  type Cn23Direction,
  type Cn23Model,
  type Cn23Party,
  type LabelReference,
  type TextMeasure,
} from './types.ts';

const KG_PER: Record<string, number> = { kg: 1, g: 0.001, lb: 0.45359237 };

/** Weight in kilograms (CN 23 asks for kg), from the account's unit. */
function toKg(weight: number, unit: string): number {
  return weight * (KG_PER[unit] ?? 1);
}

/**
 * The order has no category field: an order that declares a value is a sale of goods,
 * one with no value anywhere is "Other".
 */
export function cn23Category(view: StoredParcelView): Cn23Category {
  const o = view.order;
  const valued = o.declared_value > 0 || o.item.some((i) => i.totalValue > 0 || i.unitPrice > 0);
  return valued ? 'Sale of goods' : 'Other';
}

export function buildCn23Model(view: StoredParcelView, ref: LabelReference): Cn23Model {
  const o = view.order;
  const unit = view.weightUnit;
  const kg = (w: number): string => num(toKg(w, unit), 3);
  const country = clean(o.recipient_country);
  const gstParts = [
    o.supplier_name ? `Supplier ${clean(o.supplier_name)}` : '',
    o.supplier_gstn ? `GST reg. ${clean(o.supplier_gstn)}` : '',
    o.total_gst_amount !== undefined ? `GST ${money(o.total_gst_amount, o.gst_currency)}` : '',
    o.gst_paid ? `GST paid: ${o.gst_paid === 'Y' ? 'yes' : 'no'}` : '',
  ];
  const party = (p: OrderParty): Cn23Party => ({
    name: clean(p.name),
    address: clean(p.address),
    place: placeOf(p),
    phone: clean(p.phone),
    email: clean(p.email),
  });
  return {
    lang: langFor(country),
    country,
    trackingNumber: clean(view.trackingNumber),
    carrier: clean(ref.carriers.get(view.carrier)?.name ?? view.carrier),
    sender: party(senderOf(o)),
    addressee: party(recipientOf(o)),
    items: o.item.map((i) => ({
      description: clean(i.description),
      quantity: num(i.quantity, 3),
      netWeightKg: kg(i.weight),
      value: money(i.totalValue, i.currency),
      hsCode: clean(i.itemHSCode),
      origin: clean(i.countryOfOrigin),
    })),
    totalQuantity: num(
      o.item.reduce((a, i) => a + i.quantity, 0),
      3,
    ),
    totalNetWeightKg: kg(o.item.reduce((a, i) => a + i.weight, 0)),
    totalGrossWeightKg: kg(o.client_weight),
    totalValue: money(o.declared_value, o.declared_value_currency),
    category: cn23Category(view),
    incoterm: clean(o.incoterm_type),
    reference: clean(view.customTrackingNum || o.custom_tracking_num),
    gst: gstParts.filter(Boolean).join('; '),
    date: dateOf(view.createdAt),
    signature: clean(o.sender_name),
  };
}

const PAGE = { vertical: { w: 595.28, h: 841.89 }, horizontal: { w: 841.89, h: 595.28 } } as const;
const MARGIN = 28;
const PAD = 4;

export function cn23Doc(
  model: Cn23Model,
  direction: Cn23Direction,
  barcodes: Barcodes,
  engine: PdfEngine,
  measure: TextMeasure,
): TDocumentDefinitions {
  const content = PAGE[direction].w - 2 * MARGIN;
  const country = model.country;
  const fit = (text: string, width: number, lines: number, size: number, bold = false): Content => ({
    text: engine.rich(fitLines(text, width - 2, lines, size, bold, measure).join('\n'), country),
    fontSize: size,
    bold,
    noWrap: true,
  });
  const small = (text: string): Content => ({ text, fontSize: 6.5, color: '#333' });

  // Two party boxes side by side: table cells of half the content width each.
  const partyWidth = (content - 10) / 2 - 2 * PAD - 2;
  const partyBox = (heading: string, p: Cn23Party): Content => ({
    table: {
      widths: [partyWidth],
      body: [
        [
          {
            stack: [
              small(heading),
              fit(p.name, partyWidth, 2, 10, true),
              fit(p.address, partyWidth, 3, 8.5),
              fit(p.place, partyWidth, 2, 8.5),
              fit(p.phone ? `Tel ${p.phone}` : '', partyWidth, 1, 8.5),
              fit(p.email ? `Email ${p.email}` : '', partyWidth, 1, 8.5),
            ],
          },
        ],
      ],
    },
    layout: { paddingLeft: () => PAD, paddingRight: () => PAD, paddingTop: () => PAD, paddingBottom: () => PAD },
  });

  // Items table: fixed columns, the description takes what is left.
  const fixed = [18, 40, 56, 74, 74, 50];
  const cols = fixed.length + 1;
  const descWidth = content - fixed.reduce((a, b) => a + b, 0) - cols * 2 * PAD - (cols + 1);
  const widths = [fixed[0], descWidth, ...fixed.slice(1)] as number[];
  const th = (t: string): TableCell => ({ text: t, fontSize: 6.5, bold: true });
  const cell = (text: string, width: number, lines = 1, size = 8, bold = false): TableCell =>
    fit(text, width, lines, size, bold) as TableCell;
  const header: TableCell[] = [
    th('No.'),
    th('(1) Detailed description of contents'),
    th('(2) Quantity'),
    th('(3) Net weight (kg)'),
    th('(5) Value'),
    th('(7) HS tariff number'),
    th('(8) Country of origin of goods'),
  ];
  const rows: TableCell[][] = model.items.map((item, i) => [
    cell(String(i + 1), widths[0] ?? 18),
    cell(item.description, descWidth, 2),
    cell(item.quantity, widths[2] ?? 40),
    cell(item.netWeightKg, widths[3] ?? 56),
    cell(item.value, widths[4] ?? 74),
    cell(item.hsCode, widths[5] ?? 74, 2),
    cell(item.origin, widths[6] ?? 50),
  ]);
  const totals: TableCell[] = [
    th(''),
    th('Totals'),
    cell(model.totalQuantity, widths[2] ?? 40, 1, 8, true),
    cell(model.totalNetWeightKg, widths[3] ?? 56, 1, 8, true),
    cell(model.totalValue, widths[4] ?? 74, 1, 8, true),
    {
      colSpan: 2,
      stack: [
        small('(4) Total gross weight (kg)'),
        fit(model.totalGrossWeightKg, (widths[5] ?? 74) + (widths[6] ?? 50), 1, 8, true),
      ],
    },
    {},
  ];

  const boxes = CN23_CATEGORIES.map((c) => `${c === model.category ? '\u2612' : '\u2610'} ${c}`).join('    ');
  const infoWidth = content - 2 * PAD - 2;
  const info: Content[] = [
    { text: [{ text: '(10) Category of item   ', bold: true }, boxes], fontSize: 8.5 },
    fit(`Incoterm: ${model.incoterm || 'not stated'}`, infoWidth, 1, 8.5),
    fit(`Importer's reference / sender's reference: ${model.reference}`, infoWidth, 1, 8.5),
    ...(model.gst ? [fit(model.gst, infoWidth, 2, 8.5)] : []),
  ];

  return {
    pageSize: 'A4',
    pageOrientation: direction === 'horizontal' ? 'landscape' : 'portrait',
    pageMargins: MARGIN,
    info: { title: `CN 23 ${model.trackingNumber}`, creator: 'parcel-label', producer: 'pdfmake' },
    defaultStyle: { font: 'Sans', fontSize: 8, lineHeight: 1 },
    content: [
      {
        columns: [
          {
            width: '*',
            stack: [
              { text: 'CUSTOMS DECLARATION', bold: true, fontSize: 14 },
              { text: 'CN 23', bold: true, fontSize: 22 },
              { text: 'May be opened officially', fontSize: 8, italics: false },
              fit(`Designated operator: ${model.carrier}`, content - 250, 1, 9),
              fit(`Date: ${model.date}`, content - 250, 1, 9),
            ],
          },
          {
            width: 230,
            stack: [
              { image: barcodes.code128.dataUri, width: 230, height: 56 },
              fit(model.trackingNumber, 230, 1, 11, true),
            ],
            alignment: 'center',
          },
        ],
        columnGap: 20,
      },
      {
        columns: [partyBox('From (sender)', model.sender), partyBox('To (addressee)', model.addressee)],
        columnGap: 10,
        margin: [0, 10, 0, 0],
      },
      {
        table: { headerRows: 1, dontBreakRows: true, widths, body: [header, ...rows, totals] },
        layout: { paddingLeft: () => PAD, paddingRight: () => PAD, paddingTop: () => 2, paddingBottom: () => 2 },
        margin: [0, 10, 0, 0],
      },
      {
        table: { widths: [infoWidth], body: [[{ stack: info }]] },
        layout: { paddingLeft: () => PAD, paddingRight: () => PAD, paddingTop: () => PAD, paddingBottom: () => PAD },
        margin: [0, 10, 0, 0],
        unbreakable: true,
      },
      {
        stack: [
          {
            text: 'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
            fontSize: 7.5,
          },
          {
            columns: [
              fit(`(16) Date: ${model.date}`, 200, 1, 9),
              fit(`(17) Sender's signature: ${model.signature}`, content - 210, 1, 9),
            ],
            margin: [0, 8, 0, 0],
            columnGap: 10,
          },
        ],
        margin: [0, 10, 0, 0],
        unbreakable: true,
      },
    ],
  };
}
