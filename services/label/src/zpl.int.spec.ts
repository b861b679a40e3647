/**
 * The ZPL label, read two ways: as a printer parses it (a command parser written here from the
 * ZPL II manual, independent of the renderer: one ^XA ... ^XZ, no ~ command, every field's data
 * ^FH-escaped and closed by ^FS), and drawn by an independent renderer, Zebrash (Go, compiled to
 * WebAssembly in zpl-renderer-js, which runs offline), whose PNG zbarimg decodes.
 */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { ready } from 'zpl-renderer-js';
import { ALL, hostile, SCANNED } from '../test/fixtures.ts';
import { writeFile, zbar, zplCommands, zplTexts, rendererAndWorkDir } from '../test/spec-tools.ts';

const label = rendererAndWorkDir('label-zpl-');
const { work } = label;

describe('ZPL commands, as a printer reads them', () => {
  test.each(Object.entries(ALL))(
    '%s: one label (^XA first, ^XZ last, once each), no ~ command, every field ^FH ^FD ... ^FS',
    (_name, view) => {
      const zpl = label.renderer.shippingLabelZpl(view);
      const cmds = zplCommands(zpl);
      const names = cmds.map((c) => c.name);
      expect(names[0]).toBe('^XA');
      expect(names.at(-1)).toBe('^XZ');
      expect(names.filter((n) => n === '^XA')).toHaveLength(1);
      expect(names.filter((n) => n === '^XZ')).toHaveLength(1);
      expect(names.filter((n) => n.startsWith('~'))).toEqual([]);
      expect(names).toContain('^CI'); // ^CI28: field data is UTF-8
      cmds.forEach((c, i) => {
        if (c.name !== '^FD') return;
        expect(names[i - 1]).toBe('^FH'); // escapes decoded for this field
        expect(names[i + 1]).toBe('^FS'); // and nothing inside the data starts a command
        expect(c.params.length).toBeLessThanOrEqual(3072); // the ^FD limit
      });
      // Every command the renderer writes, and nothing else.
      const known = new Set([
        '^XA',
        '^CI',
        '^PW',
        '^LL',
        '^LH',
        '^FO',
        '^GB',
        '^FS',
        '^BQ',
        '^FH',
        '^FD',
        '^BY',
        '^BC',
        '^A0',
        '^FB',
        '^FR',
        '^XZ',
      ]);
      expect(names.filter((n) => !known.has(n))).toEqual([]);
    },
  );

  test('^ and ~ from the order are hex escapes (_5E, _7E), _ is _5F, and a backslash is doubled', () => {
    const zpl = label.renderer.shippingLabelZpl(hostile);
    expect(zpl).toContain('_5EXZ_5EXA_5EFO0,0_5EFDpwned_5EFS _7EJA');
    expect(zpl).toContain('_7EJA_7EJR_5EXZ_5EXA_5F5E');
    expect(zpl).toContain('\\\\& back\\\\slash');
    const texts = zplTexts(zpl);
    expect(texts).toContain('<script>alert(1)</script>');
    expect(texts).toContain('"><img src=x onerror=alert(1)>');
    expect(texts.some((t) => t.startsWith('^XZ^XA^FO0,0^FDpwned^FS ~JA Block 1'))).toBe(true);
    expect(texts.some((t) => t.includes('~JA~JR^XZ^XA_5E {{7*7}} \\& back\\slash'))).toBe(true);
  });
});

describe('drawn by Zebrash (zpl-renderer-js), read by zbarimg', () => {
  const mmOf = (view: StoredParcelView): [number, number] => {
    const f = label.renderer.labelFormatFor(view);
    return [(f.widthPt * 25.4) / 72, (f.heightPt * 25.4) / 72];
  };

  test.each(SCANNED)(
    '%s: exactly one label, whose Code 128 and QR decode to the tracking number',
    async (name, view) => {
      const { api } = await ready;
      const [w, h] = mmOf(view);
      const labels = await api.zplToBase64MultipleAsync(label.renderer.shippingLabelZpl(view), w, h, 8);
      expect(labels).toHaveLength(1);
      const png = writeFile(work.file(`${name.replace(/\W+/g, '-')}.png`), Buffer.from(labels[0]!, 'base64'));
      expect(zbar(png).sort()).toEqual([`CODE-128:${view.trackingNumber}`, `QR-Code:${view.trackingNumber}`]);
    },
    60_000,
  );
});
