/**
 * For tests and benches against PostgreSQL: the database URL they are given, and a throw-away
 * schema per store or run.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** PARCEL_PG_URL, or an error that says how to start PostgreSQL. */
export function pgTestUrl(): string {
  const url = process.env.PARCEL_PG_URL;
  if (!url) {
    throw new Error(
      'PARCEL_PG_URL is not set: start PostgreSQL and export it with `eval "$(bash infra/up.sh postgres)"` (npm test does this)',
    );
  }
  return url;
}

/** A schema name no other run uses, starting with `prefix`; `drop` removes it with everything in it. */
export function tempSchema(url: string, prefix = 'parcel_test'): { schema: string; drop: () => Promise<void> } {
  const schema = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A store in a throw-away schema, as a conformance suite takes it: reopened on the same schema, dropped with it. */
export async function storeInTempSchema<S extends { close(): Promise<void> }>(
  url: string,
  open: (schema: string) => Promise<S>,
): Promise<{ store: S; reopen: () => Promise<S>; cleanup: () => Promise<void> }> {
  const { schema, drop } = tempSchema(url);
  const store = await open(schema);
  return {
    store,
    reopen: () => open(schema),
    cleanup: async () => {
      await store.close();
      await drop();
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * How a named statement planned on an empty table reads `relation` once `fill` has filled it: the
 * type of every plan node on it ('Index Scan', 'Seq Scan', ...), from EXPLAIN (FORMAT JSON).
 * PostgreSQL plans a named statement once per connection and keeps the plan until the table's
 * statistics change, so a process that started on an empty table may keep a plan made for one.
 * `prepare` is the PREPARE, `first` its EXECUTE on the empty table (the generic plan is forced, as
 * the plan cache settles on it after five executions), `execute` the EXECUTE explained at the end.
 */
export async function scansOfPlanFromEmpty(
  url: string,
  statements: { prepare: string; first: string; execute: string; relation: string },
  fill: () => Promise<void>,
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements.prepare);
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(statements.first);
    await fill();
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${statements.execute}`,
    );
    const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
    return nodes(rows[0]!['QUERY PLAN'][0].Plan)
      .filter((node) => node['Relation Name'] === statements.relation)
      .map((node) => node['Node Type']);
  } finally {
    await client.end();
  }
}
