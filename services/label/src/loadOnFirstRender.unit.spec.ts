import { loadOnFirstRender } from './index.ts';
import type { LabelJob, LabelRenderer } from './types.ts';

const job = { format: 'zpl', view: {} } as LabelJob;

/** Counts loads; each loaded renderer answers with its load number. */
function loader(failFirst = 0) {
  const calls = { loads: 0 };
  const load = async (): Promise<LabelRenderer> => {
    calls.loads += 1;
    const n = calls.loads;
    await new Promise((resolve) => setImmediate(resolve));
    if (n <= failFirst) throw new Error(`font folder unreadable (${n})`);
    return {
      render: async () => `rendered by load ${n}`,
    } as Partial<LabelRenderer> as LabelRenderer;
  };
  return { calls, load };
}

describe('loadOnFirstRender: the embedded stack loads fonts with its first label, not at start', () => {
  it('loads nothing until the first render, then once for all the renders racing it and after', async () => {
    const { calls, load } = loader();
    const rendering = loadOnFirstRender(load);
    expect(calls.loads).toBe(0);
    const first = await Promise.all([rendering.render(job), rendering.render(job), rendering.render(job)]);
    expect(first).toEqual(['rendered by load 1', 'rendered by load 1', 'rendered by load 1']);
    expect(await rendering.render(job)).toBe('rendered by load 1');
    expect(calls.loads).toBe(1);
  });

  it('a failed load fails its renders, and the next render loads again', async () => {
    const { calls, load } = loader(1);
    const rendering = loadOnFirstRender(load);
    await expect(rendering.render(job)).rejects.toThrow('font folder unreadable (1)');
    expect(await rendering.render(job)).toBe('rendered by load 2');
    expect(calls.loads).toBe(2);
  });
});
