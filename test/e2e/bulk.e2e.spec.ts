/**
 * Bulk work on the distributed stack (docs/bulk.md): two gateways, two order processes, tracking,
 * label and the LMX sandbox over real Kafka, PostgreSQL and mongo-java-server. Manifests are made
 * through one gateway and re-read through the other, their PDF judged by qpdf and pdftotext; a
 * 100-label PDF comes back through Kafka; imports survive a kill -9 of every order process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportResult } from '@parcel-logistics/contracts';
import { clientB, OTHER, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { bodiesWithRefusedRows, csvOf, orderBody, refusalsOf } from '../support/orders.ts';
import { Cluster } from './support/cluster.ts';

jest.setTimeout(300_000);
const cluster = new Cluster();
let gateways: Target[];
let work: string;
beforeAll(async () => {
  await cluster.startAll();
  gateways = cluster.gateways.map(realTime);
  work = mkdtempSync(path.join(tmpdir(), 'bulk-e2e-'));
}, 240_000);
afterAll(async () => {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

const importOf = async (gw: Target, importId: string): Promise<ImportResult> =>
  (await clientB(gw).get('order/get-import', { import_id: importId })).body.data as ImportResult;

const finished = async (gw: Target, importId: string): Promise<ImportResult> => {
  let read: ImportResult | undefined;
  await eventually(async () => {
    read = await importOf(gw, importId);
    expect(read.state).toBe('finished');
  }, 180_000);
  return read!;
};

describe('end-of-day manifests over Kafka', () => {
  // First: the import tests below leave thousands of registered parcels open.
  test('a manifest created through Kafka, with its PDF and CSV; the other gateway re-reads it, and cancel is refused', async () => {
    const [gw, otherGw] = gateways as [Target, Target];
    // Whatever earlier runs left open for the demo account is closed first.
    await clientB(gw).post('manifest/create-manifest', { carrier: 'LMX' });
    const parcels = [(await registeredParcel(gw)).tn, (await registeredParcel(otherGw)).tn];
    const othersParcel = (await registeredParcel(gw, {}, OTHER)).tn;

    const r = await clientB(gw).post('manifest/create-manifest', { carrier: 'LMX' });
    expect(r.body).toMatchObject({ code: 0, message: 'success', data: { carrier: 'LMX', count: 2 } });
    const manifest = r.body.data;
    expect([...manifest.tracking_numbers].sort()).toEqual([...parcels].sort());
    expect(manifest.tracking_numbers).not.toContain(othersParcel);

    const file = path.join(work, 'manifest.pdf');
    writeFileSync(file, Buffer.from(manifest.pdf, 'base64'));
    execFileSync('qpdf', ['--check', file]);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect([...new Set(text.match(/\bPX[0-9A-Z]{16}\b/g))].sort()).toEqual([...parcels].sort());
    expect(text).toContain(manifest.manifest_id);
    const rows = manifest.csv.split('\r\n').filter(Boolean);
    expect(rows[0]).toMatch(/^tracking_number,/);
    expect(
      rows
        .slice(1)
        .map((row: string) => row.split(',')[0])
        .sort(),
    ).toEqual([...parcels].sort());

    const got = await clientB(otherGw).get('manifest/get-manifest', { manifest_id: manifest.manifest_id });
    expect(got.body.data).toMatchObject({ manifest_id: manifest.manifest_id, csv: manifest.csv, count: 2 });
    const list = await clientB(otherGw).get('manifest/list-manifests', { carrier: 'LMX', limit: '1' });
    expect(list.body.data.map((m: { manifest_id: string }) => m.manifest_id)).toEqual([manifest.manifest_id]);
    expect(
      (await clientB(otherGw, OTHER).get('manifest/get-manifest', { manifest_id: manifest.manifest_id })).body,
    ).toEqual({ code: 1, message: 'Manifest not found', data: [] });

    for (const tn of parcels)
      expect((await clientB(otherGw).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
        'MF_MF',
      );
    expect((await clientB(otherGw).post('order/cancel-orders', { tracking_nums: [parcels[0]] })).body.data).toEqual({
      success: [],
      errors: [{ tracking_number: parcels[0], remarks: 'On Manifest' }],
    });
  });
});

/** Eight CJK ideographs of its own for each name: the document embeds 1600 distinct glyphs. */
const name = (i: number) => String.fromCodePoint(...Array.from({ length: 8 }, (_, k) => 0x4e00 + 8 * i + k));

describe('many labels in one document over Kafka', () => {
  // The label service's RenderLabels reply to the tracking service, then its CreateLabels reply to
  // the gateway, both on `parcel.replies`, over Kafka's default 1 MiB record limit.
  test('"1 to 100 numbers": a 100-label PDF (over 1 MiB) comes back through Kafka with 100 pages, and every parcel shows LB_GN', async () => {
    const numbers: string[] = [];
    for (let i = 0; i < 100; i++) {
      const created = await clientB(gateways[0]!).post(
        'order/create-order',
        orderBody({ recipient_name: `${name(i)} ${i}`, recipient_address: `${name(i + 100)} ${i}` }),
      );
      expect(created.body.message).toBe('success');
      numbers.push(created.body.data.wmg_tracking_num);
    }

    const r = await clientB(gateways[0]!).post('order-shipping-label/get-shipping-labels', { tracking_nums: numbers });
    expect(r.body).toMatchObject({ code: 0, message: 'success', data: { labels: numbers, errors: [] } });
    const pdf = Buffer.from(r.body.data.base64, 'base64');
    // Past Kafka's default limit on a record batch (message.max.bytes, 1 MiB) as the reply carries it.
    expect(r.body.data.base64.length).toBeGreaterThan(1024 * 1024);
    const file = path.join(work, 'labels.pdf');
    writeFileSync(file, pdf);
    execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/^Pages:\s+100$/m);

    const multi = await clientB(gateways[0]!).post('order/query-multi-status', { tracking_nums: numbers });
    expect(multi.body.data.errors).toEqual([]);
    expect(multi.body.data.success.map((s: { last_status: string }) => s.last_status)).toEqual(
      numbers.map(() => 'LB_GN'),
    );
  });
});

describe('import-orders over Kafka', () => {
  test('1,000 rows with 10 bad ones through one gateway: exactly those 10 rejected with create-order’s messages, read back through the other', async () => {
    const [gw, other] = gateways as [Target, Target];
    const { bodies, badRows } = bodiesWithRefusedRows(1000, (i) => 11 + i * 99);
    const expected = await refusalsOf(clientB(gw), bodies, badRows);
    const accepted = await clientB(gw).csv('order/import-orders', csvOf(bodies));
    expect(accepted.body.data).toMatchObject({ rows: 1000, accepted: 990, rejected: 10, errors: expected });
    const done = await finished(other, accepted.body.data.import_id);
    expect(done).toMatchObject({ rows: 1000, accepted: 990, rejected: 10, created: 990, errors: expected });
  });

  test('kill -9 of both order processes half-way, then new ones: every good row is created exactly once', async () => {
    const [gw] = gateways as [Target];
    const ROWS = 2000;
    const bodies = Array.from({ length: ROWS }, () => orderBody());
    const accepted = await clientB(gw).csv('order/import-orders', csvOf(bodies));
    expect(accepted.body.data).toMatchObject({ rows: ROWS, accepted: ROWS });
    const importId: string = accepted.body.data.import_id;
    await eventually(async () => expect((await importOf(gw, importId)).created).toBeGreaterThan(0), 120_000);
    const before = await importOf(gw, importId);
    expect(before.state).toBe('running');
    for (const proc of cluster.of('order')) await cluster.kill(proc);
    await Promise.all([cluster.start('order'), cluster.start('order')]);

    const done = await finished(gw, importId);
    expect(done).toMatchObject({ rows: ROWS, created: ROWS, rejected: 0, errors: [] });
    const numbers = new Map<string, string>();
    await eventually(async () => {
      for (const body of bodies) {
        const ref = String(body.custom_tracking_num);
        if (numbers.has(ref)) continue;
        const found = await clientB(gw).get('order/get-barcode', { custom_tracking_num: ref });
        expect({ ref, message: found.body.message }).toEqual({ ref, message: 'success' });
        numbers.set(ref, found.body.data.barcode);
      }
    }, 60_000);
    expect(new Set(numbers.values()).size).toBe(ROWS);
  });
});
