/** Direct reads of a cluster's PostgreSQL schema and MongoDB database, to count what was stored. */
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { requireInfra } from './cluster.ts';
import type { Cluster } from './cluster.ts';

export async function storedCounts(cluster: Cluster, refs: string[]) {
  const infra = requireInfra();
  const db = new pg.Client({ connectionString: infra.pg });
  const mongo = new MongoClient(infra.mongo);
  await db.connect();
  await mongo.connect();
  try {
    const claims = await db.query<{ stream_name: string; n: string }>(
      `SELECT stream_name, count(*)::text AS n FROM "${cluster.runId}".events WHERE type = 'ReferenceClaimed.v1' AND stream_name = ANY($1) GROUP BY stream_name`,
      [refs.map((ref) => `reference-demo/${ref}`)],
    );
    const registered = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM "${cluster.runId}".events WHERE type IN ('ParcelRegistered.v2', 'ParcelRegistered.v3') AND data::jsonb #>> '{order,reference}' = ANY($1)`,
      [refs],
    );
    const views = await mongo
      .db(cluster.runId)
      .collection('parcels')
      .aggregate<{ _id: string; n: number }>([
        { $match: { clientId: 'demo', customTrackingNum: { $in: refs } } },
        { $group: { _id: '$customTrackingNum', n: { $sum: 1 } } },
      ])
      .toArray();
    return {
      claims: new Map(claims.rows.map((r) => [r.stream_name.slice('reference-demo/'.length), Number(r.n)])),
      parcelsRegistered: Number(registered.rows[0]!.n),
      views: new Map(views.map((v) => [v._id, v.n])),
    };
  } finally {
    await db.end();
    await mongo.close();
  }
}
