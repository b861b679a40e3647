/**
 * Places a shipping label on its page. Every text is cut and wrapped here, with the label
 * font's metrics, into lines that fit their box; lines sit on a fixed 1.2 x size step whatever
 * the script, so the height of the label never depends on the text. When the optional blocks
 * (COD, locker, long names and addresses) together would run past the bottom, the
 * least important lines are given up first, so the label is always exactly one page.
 */
import { fitLines } from './text.ts';
import type { LabelLayout, LabelModel, LaidText, TextMeasure } from './types.ts';

const MARGIN = 8;
const LINE = 1.2;
const GAP = 3;
const QR_SIZE = 58;
const BARCODE_HEIGHT = 44;

interface Budget {
  recipientName: number;
  recipientAddress: number;
  senderAddress: number;
  lockerAddress: number;
  service: number;
  instruction: number;
}

const FULL: Budget = {
  recipientName: 2,
  recipientAddress: 3,
  senderAddress: 2,
  lockerAddress: 2,
  service: 2,
  instruction: 2,
};

/** What is given up, in order, when the label would run past its bottom edge. */
const SHRINK: ((b: Budget) => Budget)[] = [
  (b) => ({ ...b, instruction: 1 }),
  (b) => ({ ...b, lockerAddress: 1 }),
  (b) => ({ ...b, senderAddress: 1 }),
  (b) => ({ ...b, service: 1 }),
  (b) => ({ ...b, recipientAddress: 2 }),
  (b) => ({ ...b, instruction: 0 }),
  (b) => ({ ...b, recipientName: 1 }),
];

function attempt(model: LabelModel, measure: TextMeasure, budget: Budget): { layout: LabelLayout; bottom: number } {
  const { widthPt: W } = model.format;
  const CW = W - 2 * MARGIN;
  const texts: LaidText[] = [];
  const layout: LabelLayout = {
    format: model.format,
    lang: model.lang,
    country: model.country,
    barcodeData: model.trackingNumber,
    texts,
    rules: [],
    boxes: [],
    barcodes: [],
  };
  let y = MARGIN;

  /** Adds `text` as up to `maxLines` lines at (x, y); returns the height used. */
  const put = (
    text: string,
    x: number,
    top: number,
    w: number,
    sizePt: number,
    bold: boolean,
    maxLines: number,
    extra: Partial<LaidText> = {},
  ): number => {
    if (maxLines <= 0) return 0;
    const lines = fitLines(text, w, maxLines, sizePt, bold, measure);
    lines.forEach((line, i) =>
      texts.push({
        x,
        y: top + i * sizePt * LINE,
        w,
        sizePt,
        bold,
        text: line,
        align: 'left',
        inverse: false,
        ...extra,
      }),
    );
    return lines.length * sizePt * LINE;
  };
  const rule = (): void => {
    y += GAP;
    layout.rules.push({ x: MARGIN, y, w: CW });
    y += GAP + 1;
  };

  // Header: carrier, service, date; QR code on the right.
  const headW = CW - QR_SIZE - 6;
  let hy = y;
  hy += put(model.carrier, MARGIN, hy, headW, 13, true, 1);
  hy += put(model.service, MARGIN, hy, headW, 7.5, false, budget.service);
  if (model.serviceCode) hy += put(`Service code ${model.serviceCode}`, MARGIN, hy, headW, 7.5, false, 1);
  hy += put(model.date, MARGIN, hy, headW, 7, false, 1);
  layout.barcodes.push({ kind: 'qr', x: MARGIN + CW - QR_SIZE, y, w: QR_SIZE, h: QR_SIZE });
  y = Math.max(hy, y + QR_SIZE);
  rule();

  // Tracking barcode and number.
  layout.barcodes.push({ kind: 'code128', x: MARGIN, y, w: CW, h: BARCODE_HEIGHT });
  y += BARCODE_HEIGHT + 2;
  y += put(model.trackingNumber, MARGIN, y, CW, 12, true, 1, { align: 'center' });
  rule();

  // Recipient.
  y += put('TO', MARGIN, y, CW, 6.5, true, 1);
  y += put(model.recipient.name, MARGIN, y, CW, 10, true, budget.recipientName);
  y += put(model.recipient.address, MARGIN, y, CW, 8, false, budget.recipientAddress);
  y += put(model.recipient.place, MARGIN, y, CW, 8, false, 1);
  y += put(model.recipient.phone, MARGIN, y, CW, 8, false, 1);
  rule();

  // Destination postal code, large; then weight, size and COD side by side.
  y += put(model.destination, MARGIN, y, CW, 24, true, 1);
  y += 1;
  const col = CW / 3;
  const facts: [string, string][] = [
    ['WEIGHT', model.weight],
    ['SIZE', model.size],
  ];
  let fy = 0;
  facts.forEach(([label, value], i) => {
    const x = MARGIN + i * col;
    const h = put(label, x, y, col - 4, 6, true, 1);
    fy = Math.max(fy, h + put(value, x, y + h, col - 4, 9, true, 1));
  });
  if (model.cod !== undefined) {
    const x = MARGIN + 2 * col;
    const boxH = 6 * LINE + 9 * LINE + 3;
    layout.boxes.push({ x, y: y - 1, w: col, h: boxH });
    put('COD', x + 3, y, col - 6, 6, true, 1, { inverse: true });
    put(model.cod, x + 3, y + 6 * LINE, col - 6, 9, true, 1, { inverse: true });
    fy = Math.max(fy, boxH - 1);
  }
  y += fy;
  rule();

  // Locker station.
  if (model.locker) {
    y += put('LOCKER', MARGIN, y, CW, 6.5, true, 1);
    y += put(model.locker.station, MARGIN, y, CW, 8, true, 1);
    y += put(model.locker.address, MARGIN, y, CW, 7, false, budget.lockerAddress);
    rule();
  }

  // Sender.
  y += put('FROM', MARGIN, y, CW, 6.5, true, 1);
  y += put(model.sender.name, MARGIN, y, CW, 8, true, 1);
  y += put(model.sender.address, MARGIN, y, CW, 7, false, budget.senderAddress);
  y += put(model.sender.place, MARGIN, y, CW, 7, false, 1);
  y += put(model.sender.phone, MARGIN, y, CW, 7, false, 1);
  rule();

  // Client's reference and delivery instructions.
  y += put(`REF ${model.reference}`, MARGIN, y, CW, 7, true, 1);
  if (model.instruction) y += put(`NOTE ${model.instruction}`, MARGIN, y, CW, 7, false, budget.instruction);

  return { layout, bottom: y };
}

export function layoutLabel(model: LabelModel, measure: TextMeasure): LabelLayout {
  const limit = model.format.heightPt - MARGIN;
  let budget = FULL;
  let result = attempt(model, measure, budget);
  for (const shrink of SHRINK) {
    if (result.bottom <= limit) break;
    budget = shrink(budget);
    result = attempt(model, measure, budget);
  }
  return result.layout;
}
