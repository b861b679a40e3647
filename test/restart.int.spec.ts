/** decisions.md "a restart with the same directory keeps every parcel, reference and token". */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { registeredParcel } from './support/carriers.ts';
import { clientA, clientB, tokenFor } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

test('a restart of the process keeps every parcel, reference and token', async () => {
  let stack: TestStack = await startTestStack();
  try {
    const token = await tokenFor(stack);
    const created: { ref: string; tn: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const body = orderBody();
      const r = await clientB(stack).post('order/create-order', body);
      created.push({ ref: body.custom_tracking_num as string, tn: r.body.data.wmg_tracking_num });
    }

    stack = await stack.restart();

    const lookup = await clientA(stack, token).post('status/lookup', { TrackingNumber: created.map((c) => c.tn) });
    expect(lookup.body.Code).toBe(0);
    expect(lookup.body.Data.Success.map((s: { TrackingNumber: string }) => s.TrackingNumber)).toEqual(
      created.map((c) => c.tn),
    );
    for (const { ref, tn } of created.slice(0, 5)) {
      expect((await clientB(stack).get('order/get-barcode', { custom_tracking_num: ref })).body.data.barcode).toBe(tn);
      const again = await clientB(stack).post('order/create-order', orderBody({ custom_tracking_num: ref }));
      expect(again.body.message).toBe(`custom_tracking_num (${ref}) already exist`);
    }
    // A token issued after the restart still supersedes the one issued before it.
    await tokenFor(stack);
    expect((await clientA(stack, token).post('status/lookup', { TrackingNumber: ['x'] })).body.Code).toBe(1003);
  } finally {
    await stack.destroy();
  }
});

/**
 * docs/architecture.md "Projections": the views' file does not sync each commit, so a crash of the
 * machine may lose its last writes; the checkpoints of the projector and of the manifest worker are
 * lost with them, and what those writes held is written again from the log at the next start.
 */
test('views and manifests that a crash of the machine took back are written again from the log at the next start', async () => {
  let stack: TestStack | undefined = await startTestStack();
  const { dataDir, clock } = stack;
  const views = path.join(dataDir, 'projections.db');
  const held = path.join(dataDir, 'as-the-disk-held-it');
  const files = ['', '-wal', '-shm'].map((suffix) => `projections.db${suffix}`);
  const create = async (s: TestStack): Promise<string> =>
    (await clientB(s).post('order/create-order', orderBody())).body.data.wmg_tracking_num;
  const lookup = async (s: TestStack, numbers: string[]) => {
    const r = await clientA(s, await tokenFor(s)).post('status/lookup', { TrackingNumber: numbers });
    return r.body.Data as { Success: { TrackingNumber: string }[]; Failure: unknown[] };
  };
  /** The manifest as get-manifest answers it, but its PDF (rendered as it is read: its creation date is the reading's). */
  const getManifest = async (s: TestStack, manifestId: string) => {
    const { pdf, ...rest } = (await clientB(s).get('manifest/get-manifest', { manifest_id: manifestId })).body.data;
    expect(String(pdf)).toMatch(/^JVBERi0/); // %PDF-
    return rest as { tracking_numbers: string[] };
  };
  try {
    const before = [await create(stack), await create(stack)];
    await stack.caughtUp();
    await stack.stop();
    stack = undefined;
    // The views' file as the disk holds it now: whatever is written to it later, the crash loses.
    mkdirSync(held);
    for (const f of files)
      if (existsSync(path.join(dataDir, f))) copyFileSync(path.join(dataDir, f), path.join(held, f));

    stack = await startTestStack({}, { dataDir, clock });
    const after = [await create(stack), await create(stack), (await registeredParcel(stack)).tn];
    const closed = await clientB(stack).post('manifest/create-manifest', { carrier: 'LMX' });
    const manifestId: string = closed.body.data.manifest_id;
    await stack.caughtUp();
    const served = await lookup(stack, [...before, ...after]);
    expect(served.Success.map((s) => s.TrackingNumber)).toEqual([...before, ...after]);
    const manifest = await getManifest(stack, manifestId);
    expect(manifest.tracking_numbers).toContain(after[2]);
    await stack.stop();
    stack = undefined;

    // The crash: the views' file goes back to what the disk held; the event store kept its commits.
    for (const f of files) {
      rmSync(path.join(dataDir, f), { force: true });
      if (existsSync(path.join(held, f))) copyFileSync(path.join(held, f), path.join(dataDir, f));
    }
    expect(existsSync(views)).toBe(true);
    stack = await startTestStack({}, { dataDir, clock });
    await stack.caughtUp();
    expect(await lookup(stack, [...before, ...after])).toEqual(served);
    expect(await getManifest(stack, manifestId)).toEqual(manifest);
  } finally {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
