import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from '@jest/globals';
import { parcelView, projectionStoreConformance } from '@parcel-logistics/projections/conformance';
import { byNumberSql, createSqliteProjectionStore } from './sqlite.ts';
import { idempotencySchema, idempotencySql } from './sqliteIdempotency.ts';

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
  // A1 "Query multiple tracking numbers at once": the time of a lookup must not grow with the
  // account's parcels. The planner's choice, not a timing, is asserted: without statistics it
  // depends on the schema and the statement alone.
  it('A1 lookups: every lookup by tracking number is answered from the primary key, the batch one included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parcel-projections-'));
    const file = join(dir, 'projections.db');
    const store = createSqliteProjectionStore({ file });
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      for (let i = 0; i < 200; i++) {
        await store.parcels.save(parcelView({ trackingNumber: `PX${i}`, clientId: i % 2 === 0 ? 'even' : 'odd' }), -1);
      }
      const numbers = JSON.stringify(['PX0', 'PX1', 'PX2']);
      const plans = {
        get: db.prepare(`EXPLAIN QUERY PLAN ${byNumberSql.get}`).all('PX0'),
        getForClient: db.prepare(`EXPLAIN QUERY PLAN ${byNumberSql.getForClient}`).all('PX0', 'even'),
        getMany: db.prepare(`EXPLAIN QUERY PLAN ${byNumberSql.getMany}`).all(numbers, 'even'),
        revisions: db.prepare(`EXPLAIN QUERY PLAN ${byNumberSql.revisions}`).all(numbers),
      };
      for (const [lookup, plan] of Object.entries(plans)) {
        const searches = plan.map((step) => String(step.detail)).filter((detail) => /\bparcels\b/.test(detail));
        expect({ lookup, searches }).toEqual({
          lookup,
          searches: ['SEARCH parcels USING INDEX sqlite_autoindex_parcels_1 (tracking_number=?)'],
        });
      }
      // The account is still checked on the rows found.
      const found = await store.parcels.getManyForClient('even', ['PX0', 'PX1', 'PX2', 'PX3', 'PX4', 'missing']);
      expect([...found.keys()].sort()).toEqual(['PX0', 'PX2', 'PX4']);
    } finally {
      db.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('Idempotency-Key records: each statement on one key searches the primary key, the purge the expiry index', () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec(idempotencySchema);
      const plan = (sql: string, ...params: string[]) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...params)
          .map((step) => String(step.detail));
      const byKey = ['SEARCH idempotency USING INDEX sqlite_autoindex_idempotency_1 (client_id=? AND key=?)'];
      expect(plan(idempotencySql.get, 'c', 'k')).toEqual(byKey);
      expect(plan(idempotencySql.complete, '200', 'body', 'c', 'k', 'o')).toEqual(byKey);
      expect(plan(idempotencySql.release, 'c', 'k', 'o')).toEqual(byKey);
      expect(plan(idempotencySql.purge, '0')).toEqual([
        'SEARCH idempotency USING INDEX idempotency_by_expiry (expires_at<?)',
      ]);
    } finally {
      db.close();
    }
  });
});
