import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from '@jest/globals';
import {
  expectFormerViewsDue,
  formerRetentionViews,
  parcelView,
  projectionStoreConformance,
} from '@parcel-logistics/projections/conformance';
import { storeInTempFile } from '@parcel-logistics/sqlite/scratch';
import { byNumberSql, createSqliteProjectionStore, dueForErasureSql } from './sqlite.ts';
import { idempotencySchema, idempotencySql } from './sqliteIdempotency.ts';

projectionStoreConformance('sqlite file', () =>
  storeInTempFile('projections.db', (file) => createSqliteProjectionStore({ file })),
);

projectionStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteProjectionStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

describe('sqlite projection store', () => {
  it('a read sees every save asked for before it, committed or still queued', async () => {
    const store = createSqliteProjectionStore({ file: ':memory:' });
    try {
      const first = store.parcels.save(parcelView({ trackingNumber: 'PX1', clientId: 'c1' }), -1);
      const second = store.parcels.save(parcelView({ trackingNumber: 'PX2', clientId: 'c1' }), -1);
      expect(await store.parcels.revisions(['PX1', 'PX2', 'PX3'])).toEqual(
        new Map([
          ['PX1', 0],
          ['PX2', 0],
        ]),
      );
      const third = store.parcels.save(parcelView({ trackingNumber: 'PX3', clientId: 'c1' }), -1);
      expect(await store.parcels.get('PX3')).toMatchObject({ trackingNumber: 'PX3' });
      expect(await Promise.all([first, second, third])).toEqual([true, true, true]);
    } finally {
      await store.close();
    }
  });

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

  it('the retention sweep: each half of its query searches its own partial index, never every parcel', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parcel-projections-'));
    const file = join(dir, 'projections.db');
    await createSqliteProjectionStore({ file }).close();
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${dueForErasureSql}`)
        .all(1, 2, 3)
        .map((step) => String(step.detail));
      expect(plan).toEqual([
        'MULTI-INDEX OR',
        'INDEX 1',
        'SEARCH parcels USING INDEX parcels_by_retention_created (retention_created_ms<?)',
        'INDEX 2',
        'SEARCH parcels USING INDEX parcels_by_retention_final (retention_final_ms<?)',
      ]);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a file of an earlier version gets the retention columns, filled in from its stored views', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parcel-projections-'));
    const file = join(dir, 'projections.db');
    try {
      const former = new DatabaseSync(file);
      former.exec(`CREATE TABLE parcels (
        tracking_number TEXT PRIMARY KEY, client_id TEXT NOT NULL, custom_ref TEXT NOT NULL,
        revision INTEGER NOT NULL, carrier TEXT NOT NULL DEFAULT '', partner_tracking_no TEXT NOT NULL DEFAULT '',
        doc TEXT NOT NULL)`);
      const views = formerRetentionViews();
      const insert = former.prepare(
        'INSERT INTO parcels (tracking_number, client_id, custom_ref, revision, doc) VALUES (?, ?, ?, ?, ?)',
      );
      for (const view of views)
        insert.run(view.trackingNumber, view.clientId, view.customTrackingNum, view.revision, JSON.stringify(view));
      former.close();
      const store = createSqliteProjectionStore({ file });
      try {
        await expectFormerViewsDue(store, views);
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('Idempotency-Key records: each statement on one key searches the primary key, the purge the expiry index, forgetting a parcel its links', () => {
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
      // Forgetting a parcel's answers: its links by their primary key, each record by its own.
      const links = 'SEARCH idempotency_parcels USING PRIMARY KEY (tracking_number=?)';
      expect(plan(idempotencySql.forget, 'TN').filter((step) => step.startsWith('SEARCH'))).toEqual([
        ...byKey,
        links,
        links,
      ]);
      expect(plan(idempotencySql.forget, 'TN').some((step) => step.startsWith('SCAN'))).toBe(false);
      expect(plan(idempotencySql.unlink, 'TN')).toEqual([links]);
      // Links left by records purged or taken over: every link (few: the answers that name parcels), each record by its key.
      expect(plan(idempotencySql.purgeLinks)).toEqual([
        'SCAN idempotency_parcels',
        'CORRELATED SCALAR SUBQUERY 1',
        ...byKey,
      ]);
    } finally {
      db.close();
    }
  });
});
