/**
 * End-of-day manifests on the distributed wiring (docs/bulk.md, "End-of-day manifests"): created
 * through one gateway over Kafka (order service, label service), its PDF judged by qpdf and
 * pdftotext, its CSV read, then re-read and cancel refused through the other gateway.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientB, OTHER, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { registeredParcel } from '../support/carriers.ts';
import { Cluster } from './support/cluster.ts';

jest.setTimeout(120_000);
const cluster = new Cluster();
let gateways: Target[];
let work: string;
beforeAll(async () => {
  await cluster.startAll();
  gateways = cluster.gateways.map(realTime);
  work = mkdtempSync(path.join(tmpdir(), 'manifests-e2e-'));
}, 240_000);
afterAll(async () => {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

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
