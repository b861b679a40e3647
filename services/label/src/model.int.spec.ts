/**
 * One model, three formats: the PDF (read back with pdftotext), the HTML and the ZPL of a label
 * show the same facts. And rendering reads no file: fonts and the template are loaded when the
 * renderer is created.
 */
import fs from 'node:fs';
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { ALL, myPickup, selfLabel, sgLockerCod, usExpress, view } from '../test/fixtures.ts';
import { createLabelRenderer } from './index.ts';
import { htmlTexts, pdfText, writeFile, zplTexts, rendererAndWorkDir } from '../test/spec-tools.ts';

const label = rendererAndWorkDir('label-model-');
const { work } = label;

interface Facts {
  trackingNumber: string;
  recipient: string;
  destination: string;
  weight: string;
  reference: string;
  cod?: string;
  locker?: string;
}

const withReference = view(
  'PR4E5F6G7H8J9K2',
  { custom_tracking_num: 'SHOP_2024-000417', client_weight: 0.75, recipient_name: 'Siti Nurhaliza' },
  { weightUnit: 'kg' },
);

test.each([
  [
    'LMD with COD and locker',
    sgLockerCod,
    {
      trackingNumber: 'PX7K2M9Q4T8W3N5',
      recipient: 'Tan Wei Ming',
      destination: 'SG 018956',
      weight: '1.25 kg',
      reference: 'ORD-1001',
      cod: 'SGD 25.50',
      locker: 'SGL0142 Marina Bay Link Mall Locker',
    },
  ],
  [
    'PUD',
    myPickup,
    {
      trackingNumber: 'PM3Z8R1D6F0H2J4',
      recipient: 'Nur Aisyah binti Ahmad',
      destination: 'MY 50450',
      weight: '1.25 kg',
      reference: 'ORD-1001',
    },
  ],
  [
    'US',
    usExpress,
    {
      trackingNumber: 'PU5C9V2B7N1M4K8',
      recipient: 'Jordan Smith',
      destination: 'US 94043',
      weight: '1.25 kg',
      reference: 'ORD-1001',
    },
  ],
  [
    'SLF',
    selfLabel,
    {
      trackingNumber: 'PS1A2B3C4D5E6F7',
      recipient: 'Olivia Brown',
      destination: 'AU 2000',
      weight: '1.25 kg',
      reference: 'ORD-1001',
    },
  ],
  [
    'custom reference',
    withReference,
    {
      trackingNumber: 'PR4E5F6G7H8J9K2',
      recipient: 'Siti Nurhaliza',
      destination: 'SG 018956',
      weight: '0.75 kg',
      reference: 'SHOP_2024-000417',
    },
  ],
] as [string, StoredParcelView, Facts][])(
  '%s: PDF, HTML and ZPL show the same facts',
  async (name, v, facts) => {
    const pdf = pdfText(
      writeFile(work.file(`${name.replace(/\W+/g, '-')}.pdf`), await label.renderer.shippingLabelPdf(v)),
    );
    const html = htmlTexts(label.renderer.shippingLabelHtml(v));
    const zpl = zplTexts(label.renderer.shippingLabelZpl(v));
    // HTML and ZPL are drawn line for line from the same layout.
    expect(zpl).toEqual(html);
    const expected = [
      facts.trackingNumber,
      facts.recipient,
      facts.destination,
      facts.weight,
      `REF ${facts.reference}`,
      ...(facts.cod ? ['COD', facts.cod] : []),
      ...(facts.locker ? ['LOCKER', facts.locker] : []),
    ];
    for (const fact of expected) {
      expect(pdf).toContain(fact);
      expect(html).toContain(fact);
      expect(zpl).toContain(fact);
    }
    if (!facts.cod) for (const text of [pdf, html.join('\n'), zpl.join('\n')]) expect(text).not.toContain('COD');
    if (!facts.locker) for (const text of [pdf, html.join('\n'), zpl.join('\n')]) expect(text).not.toContain('LOCKER');
  },
  60_000,
);

test('no file is read, opened or looked up while rendering, in any format', async () => {
  const names = [
    'readFileSync',
    'readFile',
    'openSync',
    'open',
    'readSync',
    'read',
    'existsSync',
    'statSync',
    'stat',
    'lstatSync',
    'readdirSync',
    'createReadStream',
  ] as const;
  const spies = names.map((n) => jest.spyOn(fs, n));
  const promiseSpies = (['readFile', 'open', 'stat'] as const).map((n) => jest.spyOn(fs.promises, n));
  try {
    // A fresh renderer: its first renders are checked too. Its creation is the only reading.
    const fresh = await createLabelRenderer({ ref: loadReferenceData() });
    const readAtStart = spies.reduce((sum, s) => sum + s.mock.calls.length, 0);
    expect(readAtStart).toBeGreaterThan(0); // the spies see the font files being read
    [...spies, ...promiseSpies].forEach((s) => s.mockClear());
    for (const v of Object.values(ALL)) {
      await fresh.shippingLabelPdf(v);
      await fresh.cn23Pdf(v, 'horizontal');
      await fresh.cn23Pdf(v, 'vertical');
      fresh.shippingLabelHtml(v);
      fresh.shippingLabelZpl(v);
    }
    const calls = [...spies, ...promiseSpies].flatMap((s) =>
      s.mock.calls.map((c) => `${s.getMockName()} ${String(c[0])}`),
    );
    expect(calls).toEqual([]);
  } finally {
    [...spies, ...promiseSpies].forEach((s) => s.mockRestore());
  }
}, 60_000);
