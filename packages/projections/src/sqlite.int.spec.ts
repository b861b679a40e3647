import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parcelView, projectionStoreConformance } from './conformance.ts';
import { createSqliteProjectionStore } from './sqlite.ts';

projectionStoreConformance('sqlite file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-projections-'));
  const file = join(dir, 'projections.db');
  const store = createSqliteProjectionStore({ file });
  return {
    store,
    reopen: async () => createSqliteProjectionStore({ file }),
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

projectionStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteProjectionStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

describe('sqlite projection store', () => {
  it('answers 1000 tracking numbers among 20 000 parcels in a few milliseconds', async () => {
    const store = createSqliteProjectionStore({ file: ':memory:' });
    try {
      for (let i = 0; i < 20_000; i++) {
        await store.parcels.save(parcelView({ trackingNumber: `PX${i}`, clientId: i % 2 === 0 ? 'even' : 'odd' }), -1);
      }
      const numbers = Array.from({ length: 1000 }, (_, i) => `PX${i * 7}`);
      const timings: number[] = [];
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        const found = await store.parcels.getManyForClient('even', numbers);
        timings.push(performance.now() - started);
        expect(found.size).toBe(500);
      }
      expect(timings.sort((a, b) => a - b)[2]).toBeLessThan(50);
    } finally {
      await store.close();
    }
  });
});
