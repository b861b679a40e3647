/**
 * A baseline, not a service: what a user would write instead of the event-sourced stack to take the
 * same create-order (interface B), so the foundation benchmark can say what the events, projections
 * and bus cost against it. Express 5, a zod 4 schema of the order's fields written plainly (types,
 * required fields, lengths; not our rule engine) and node:sqlite on the event loop: one transaction
 * inserts the order row and its first status row (DR_DR); a unique constraint on (client,
 * reference) refuses a reference used twice. The gateway's own signed-header check and the demo
 * accounts, and the same answer envelope, so the load generator cannot tell the two apart on the
 * success path. Nothing else: no carrier registration, telemetry, rate limit or Idempotency-Key.
 * SQLite in WAL mode, `synchronous` from PARCEL_DURABILITY as the embedded stack reads it (full:
 * FULL, its default; normal: NORMAL). Only bench/foundation.bench.ts starts it.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import express from 'express';
import { z } from 'zod';
import { loadSettings } from '@parcel-logistics/config';
import { formatSgt, newTrackingNumber } from '@parcel-logistics/domain';
import { fixedDirectory } from '@parcel-logistics/accounts';
import { loadAccounts } from '@parcel-logistics/reference-data';
import { verifySignedHeaders } from '../services/gateway/src/auth/signature.ts';

const settings = loadSettings();
const accounts = fixedDirectory(loadAccounts(settings.accountsFile));

const text = (max: number) => z.string().min(1).max(max);
const country = z.string().regex(/^[A-Z]{2}$/);
const currency = z.string().regex(/^[A-Z]{3}$/);
const phone = z.string().regex(/^\d{6,20}$/);
const item = z.object({
  description: text(255),
  unitPrice: z.number().nonnegative(),
  quantity: z.number().positive(),
  weight: z.number().nonnegative(),
  currency,
  totalValue: z.number().nonnegative(),
  countryOfOrigin: country.optional(),
  itemHSCode: text(255).optional(),
  productURL: text(500).optional(),
});
const order = z.object({
  custom_tracking_num: text(32).regex(/^[A-Za-z0-9_-]+$/),
  recipient_name: text(64),
  recipient_country: country,
  recipient_phone: phone,
  recipient_address: text(512),
  postal_code: z
    .string()
    .regex(/^\d{3,10}$/)
    .optional(),
  recipient_state: text(60).optional(),
  recipient_city: text(64).optional(),
  recipient_email: z.email().optional(),
  sender_country: country,
  sender_name: text(64).optional(),
  sender_phone: phone.optional(),
  sender_address: text(512).optional(),
  client_size: z.string().regex(/^\d+(\.\d+)?,\d+(\.\d+)?,\d+(\.\d+)?$/),
  client_weight: z.number().positive().max(9999),
  declared_value: z.number().nonnegative().max(9999.99),
  declared_value_currency: currency,
  service_type: z.string().length(3).optional(),
  instruction: text(1024).optional(),
  item: z.array(item).min(1).max(1000),
});

mkdirSync(settings.dataDir, { recursive: true });
const db = new DatabaseSync(path.join(settings.dataDir, 'crud.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec(`PRAGMA synchronous = ${settings.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
db.exec(`
CREATE TABLE IF NOT EXISTS orders (
  tracking_num TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  custom_tracking_num TEXT NOT NULL,
  recipient_country TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (client_id, custom_tracking_num)
);
CREATE TABLE IF NOT EXISTS order_status (
  id INTEGER PRIMARY KEY,
  tracking_num TEXT NOT NULL REFERENCES orders (tracking_num),
  status TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS order_status_by_tracking_num ON order_status (tracking_num);`);
const insertOrder = db.prepare(
  'INSERT INTO orders (tracking_num, client_id, custom_tracking_num, recipient_country, data, created_at) VALUES (?, ?, ?, ?, ?, ?)',
);
const insertStatus = db.prepare('INSERT INTO order_status (tracking_num, status, at) VALUES (?, ?, ?)');
/** SQLITE_CONSTRAINT_UNIQUE: the (client, reference) pair is taken. */
const UNIQUE_VIOLATION = 2067;

const app = express();
app.disable('x-powered-by');
app.use(express.json());
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/v1/openapi/order/create-order', (req, res) => {
  const auth = verifySignedHeaders(req.headers, accounts.byName, Date.now());
  if (!auth.ok) return void res.json({ code: 1, message: auth.message, data: [] });
  const parsed = order.safeParse(req.body);
  if (!parsed.success)
    return void res.json({ code: 1, message: `${parsed.error.issues[0]!.path.join('.')} invalid`, data: [] });
  const o = parsed.data;
  const trackingNum = newTrackingNumber();
  const now = formatSgt(new Date());
  db.exec('BEGIN');
  try {
    insertOrder.run(
      trackingNum,
      auth.account.clientId,
      o.custom_tracking_num,
      o.recipient_country,
      JSON.stringify(o),
      now,
    );
    insertStatus.run(trackingNum, 'DR_DR', now);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    if ((error as { errcode?: number }).errcode !== UNIQUE_VIOLATION) throw error;
    return void res.json({
      code: 1,
      message: `custom_tracking_num (${o.custom_tracking_num}) already exist`,
      data: [],
    });
  }
  res.json({
    code: 0,
    message: 'success',
    data: {
      custom_tracking_num: o.custom_tracking_num,
      wmg_tracking_num: trackingNum,
      date_time: now,
      status: '',
      error: [],
    },
  });
});

const server = app.listen(settings.port, settings.host);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
