import { describe, expect, it } from '@jest/globals';
import type { ConsumedRecord } from './codec.ts';
import { createPartitionFlow } from './flow.ts';
import type { FlowOptions } from './flow.ts';

let offset = 0;
const record = (key: string): ConsumedRecord => ({
  key: Buffer.from(key),
  value: Buffer.from('{}'),
  offset: String(offset++),
  headers: {},
});

/** A handler whose calls wait until the test finishes or fails them, one by one. */
function controlled() {
  const started: string[] = [];
  const pending = new Map<string, PromiseWithResolvers<boolean>>();
  const handle = (r: ConsumedRecord) => {
    const call = Promise.withResolvers<boolean>();
    started.push(r.offset);
    pending.set(r.offset, call);
    return call.promise;
  };
  const settle = async (r: ConsumedRecord, outcome: boolean | Error = true) => {
    const call = pending.get(r.offset);
    if (!call) throw new Error(`offset ${r.offset} has not started`);
    pending.delete(r.offset);
    if (outcome instanceof Error) call.reject(outcome);
    else call.resolve(outcome);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, handle, settle };
}

function flowWith(handle: FlowOptions['handle'], options: Partial<FlowOptions> = {}) {
  const resolved: string[] = [];
  const failures: unknown[] = [];
  let settled = 0;
  const flow = createPartitionFlow({
    concurrency: 16,
    handle,
    resolve: (o) => resolved.push(o),
    proceed: () => true,
    failed: (error) => failures.push(error),
    settled: () => (settled += 1),
    ...options,
  });
  return { flow, resolved, failures, settledCount: () => settled };
}

describe('partition flow: records start as they arrive, one key in order, offsets resolved in order', () => {
  it('a record of another key starts while an earlier one still runs', () => {
    const h = controlled();
    const { flow } = flowWith(h.handle);
    const slow = record('a');
    const next = record('b');
    flow.push(slow);
    flow.push(next);
    expect(h.started).toEqual([slow.offset, next.offset]);
  });

  it('a record of a key with an unfinished record waits for it, then runs in offset order', async () => {
    const h = controlled();
    const { flow } = flowWith(h.handle);
    const [a1, a2, a3] = [record('a'), record('a'), record('a')];
    flow.push(a1);
    flow.push(a2);
    flow.push(a3);
    expect(h.started).toEqual([a1.offset]);
    await h.settle(a1);
    expect(h.started).toEqual([a1.offset, a2.offset]);
    await h.settle(a2);
    await h.settle(a3);
    expect(h.started).toEqual([a1.offset, a2.offset, a3.offset]);
  });

  it('an offset is resolved only once every record before it is done, whatever order they finish in', async () => {
    const h = controlled();
    const { flow, resolved, settledCount } = flowWith(h.handle);
    const [a, b, c] = [record('a'), record('b'), record('c')];
    for (const r of [a, b, c]) flow.push(r);
    await h.settle(c);
    await h.settle(b);
    expect(resolved).toEqual([]);
    expect(flow.unfinished).toBe(1);
    await h.settle(a);
    expect(resolved).toEqual([c.offset]);
    expect(settledCount()).toBe(3);
    expect(flow.unfinished).toBe(0);
  });

  it('at most `concurrency` keys run at once; the next key starts when one finishes', async () => {
    const h = controlled();
    const { flow } = flowWith(h.handle, { concurrency: 2 });
    const [a, b, c] = [record('a'), record('b'), record('c')];
    for (const r of [a, b, c]) flow.push(r);
    expect(h.started).toEqual([a.offset, b.offset]);
    await h.settle(b);
    expect(h.started).toEqual([a.offset, b.offset, c.offset]);
  });

  it('after a failure nothing new starts; retry runs every unfinished record again in offset order, not the done ones', async () => {
    const h = controlled();
    const { flow, resolved, failures } = flowWith(h.handle);
    const [a1, b, a2, c] = [record('a'), record('b'), record('a'), record('c')];
    for (const r of [a1, b, a2]) flow.push(r);
    await h.settle(b);
    await h.settle(a1, new Error('broker gone'));
    expect(failures).toHaveLength(1);
    flow.push(c);
    expect(h.started).toEqual([a1.offset, b.offset]);
    await flow.idle();

    h.started.length = 0;
    flow.retry();
    expect(h.started).toEqual([a1.offset, c.offset]);
    await h.settle(a1);
    await h.settle(c);
    await h.settle(a2);
    expect(h.started).toEqual([a1.offset, c.offset, a2.offset]);
    expect(resolved.at(-1)).toBe(c.offset);
    expect(flow.unfinished).toBe(0);
  });

  it('once `proceed` says no, no record starts, a handler that gives up leaves its record unfinished, and idle() resolves', async () => {
    const h = controlled();
    let go = true;
    const { flow, resolved } = flowWith(h.handle, { proceed: () => go });
    const [a1, a2, b] = [record('a'), record('a'), record('b')];
    flow.push(a1);
    flow.push(a2);
    go = false;
    flow.push(b);
    expect(h.started).toEqual([a1.offset]);
    await h.settle(a1, false);
    await flow.idle();
    expect(h.started).toEqual([a1.offset]);
    expect(resolved).toEqual([]);
    expect(flow.unfinished).toBe(3);
  });
});
