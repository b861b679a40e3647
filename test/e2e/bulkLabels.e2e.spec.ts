/**
 * Many labels in one document on the distributed stack: 100 parcels' labels come back as one PDF
 * through Kafka (the label service's RenderLabels reply to the tracking service, then its
 * CreateLabels reply to the gateway, both on `parcel.replies`), over Kafka's default 1 MiB record
 * limit, with LB_GN recorded on every parcel (docs/bulk.md, "Many labels in one document").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientB, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { Cluster } from './support/cluster.ts';

jest.setTimeout(180_000);
// A hundred orders in a row: over the default rate limit of an account.
const cluster = new Cluster({ PARCEL_RATE_LIMIT_RPS: '1000', PARCEL_RATE_LIMIT_BURST: '2000' });
let gateway: Target;
let work: string;
beforeAll(async () => {
  await cluster.startAll({ gateways: 1, orders: 1 });
  gateway = realTime(cluster.gateways[0]!);
  work = mkdtempSync(path.join(tmpdir(), 'bulk-labels-e2e-'));
}, 240_000);
afterAll(async () => {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

/** Eight CJK ideographs of its own for each name: the document embeds 1600 distinct glyphs. */
const name = (i: number) => String.fromCodePoint(...Array.from({ length: 8 }, (_, k) => 0x4e00 + 8 * i + k));

test('"1 to 100 numbers": a 100-label PDF (over 1 MiB) comes back through Kafka with 100 pages, and every parcel shows LB_GN', async () => {
  const numbers: string[] = [];
  for (let i = 0; i < 100; i++) {
    const created = await clientB(gateway).post(
      'order/create-order',
      orderBody({ recipient_name: `${name(i)} ${i}`, recipient_address: `${name(i + 100)} ${i}` }),
    );
    expect(created.body.message).toBe('success');
    numbers.push(created.body.data.wmg_tracking_num);
  }

  const r = await clientB(gateway).post('order-shipping-label/get-shipping-labels', { tracking_nums: numbers });
  expect(r.body).toMatchObject({ code: 0, message: 'success', data: { labels: numbers, errors: [] } });
  const pdf = Buffer.from(r.body.data.base64, 'base64');
  // Past Kafka's default limit on a record batch (message.max.bytes, 1 MiB) as the reply carries it.
  expect(r.body.data.base64.length).toBeGreaterThan(1024 * 1024);
  const file = path.join(work, 'labels.pdf');
  writeFileSync(file, pdf);
  execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
  expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/^Pages:\s+100$/m);

  const multi = await clientB(gateway).post('order/query-multi-status', { tracking_nums: numbers });
  expect(multi.body.data.errors).toEqual([]);
  expect(multi.body.data.success.map((s: { last_status: string }) => s.last_status)).toEqual(
    numbers.map(() => 'LB_GN'),
  );
});
