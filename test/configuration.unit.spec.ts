/**
 * One configuration loader for both wirings (packages/config), and every variable it reads in the
 * table of docs/configuration.md, with the few that are read elsewhere: the LMX sandbox's own
 * main.ts, `npm start`'s heap.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, SettingsError } from '@parcel-logistics/config';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function variablesIn(source: string): string[] {
  const names = [...source.matchAll(/(?:\benv\.|\(env, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] as string);
  return [...new Set(names)].sort();
}

const table = read('docs/configuration.md');
const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string));

describe('configuration', () => {
  const configFiles = readdirSync(path.join(ROOT, 'packages/config/src')).filter(
    (f) => f.endsWith('.ts') && !f.includes('.spec.'),
  );
  const loaded = variablesIn(configFiles.map((f) => read(`packages/config/src/${f}`)).join('\n'));

  test('every variable the loader reads is in the table of docs/configuration.md', () => {
    expect(loaded.length).toBeGreaterThan(20);
    expect(loaded.filter((name) => !documented.has(name))).toEqual([]);
  });

  test('so are the LMX sandbox and heap variables, read outside the loader', () => {
    const elsewhere = [...variablesIn(read('services/carrier-sandbox/src/main.ts')), 'PARCEL_HEAP_MB'];
    expect(elsewhere.filter((name) => !documented.has(name))).toEqual([]);
  });

  test('no composition root reads its settings from another loader', () => {
    const roots = ['gateway', 'order', 'tracking', 'label', 'webhook', 'embedded'].map((s) =>
      read(`services/${s}/src/main.ts`),
    );
    for (const source of roots) {
      expect(source).toMatch(/loadSettings\(/);
      expect(source).not.toMatch(/process\.env\.[A-Z]/);
    }
  });

  test('one call gives the distributed settings on top of the common ones; a missing broker list is refused', () => {
    const env = {
      PARCEL_KAFKA_BROKERS: 'a:1, b:2',
      PARCEL_PG_URL: 'postgres://x',
      PARCEL_MONGO_URL: 'mongodb://m',
      HEALTH_PORT: '9000',
    };
    const settings = loadSettings(env, 'order');
    expect(settings.port).toBe(8080);
    expect(settings.distributed).toMatchObject({
      kafkaBrokers: ['a:1', 'b:2'],
      eventStore: 'postgres',
      pgSchema: 'parcel',
      mongoDb: 'parcel',
      healthPort: 9000,
      kafkaClient: 'platformatic',
    });
    expect(settings.distributed.instanceId).toMatch(/^order-/);
    expect('distributed' in loadSettings(env)).toBe(false);
    expect(() => loadSettings({ ...env, PARCEL_KAFKA_BROKERS: '' }, 'order')).toThrow(SettingsError);
    expect(() => loadSettings({ ...env, PARCEL_EVENT_STORE: 'sqlite' }, 'order')).toThrow(
      'PARCEL_EVENT_STORE must be one of postgres, kurrentdb',
    );
    expect(() => loadSettings({ ...env, HEALTH_PORT: 'x' }, 'order')).toThrow('HEALTH_PORT must be an integer');
  });

  test('a webhook lease outlives the attempt it was renewed for; the webhook store keeps PARCEL_PG_URL with KurrentDB events', () => {
    expect(loadSettings({}).webhooks.leaseMs).toBe(30_000);
    expect(loadSettings({ PARCEL_WEBHOOK_TIMEOUT_MS: '2000', PARCEL_WEBHOOK_LEASE_MS: '2001' }).webhooks.leaseMs).toBe(
      2001,
    );
    expect(() => loadSettings({ PARCEL_WEBHOOK_TIMEOUT_MS: '2000', PARCEL_WEBHOOK_LEASE_MS: '2000' })).toThrow(
      'PARCEL_WEBHOOK_LEASE_MS must be longer than PARCEL_WEBHOOK_TIMEOUT_MS (2000)',
    );
    const kurrent = {
      PARCEL_KAFKA_BROKERS: 'k:1',
      PARCEL_EVENT_STORE: 'kurrentdb',
      KURRENTDB_URL: 'kurrentdb://k',
      PARCEL_MONGO_URL: 'mongodb://m',
    };
    expect(loadSettings(kurrent, 'webhook').distributed.pgUrl).toBe('');
    expect(loadSettings({ ...kurrent, PARCEL_PG_URL: 'postgres://p' }, 'webhook').distributed.pgUrl).toBe(
      'postgres://p',
    );
  });

  test('the operator API: off without a token; one token acts as `operator`, `name:token` pairs name their operators; a short token stops the start', () => {
    const long = 'a'.repeat(32);
    expect(loadSettings({}).admin).toEqual({ tokens: [], port: 9080, host: '127.0.0.1' });
    expect(loadSettings({ PARCEL_ADMIN_TOKEN: long }).admin.tokens).toEqual([{ name: 'operator', token: long }]);
    expect(loadSettings({ PARCEL_ADMIN_TOKEN: `alice:${long}, bob:${long}b` }).admin.tokens).toEqual([
      { name: 'alice', token: long },
      { name: 'bob', token: `${long}b` },
    ]);
    expect(() => loadSettings({ PARCEL_ADMIN_TOKEN: 'alice:short' })).toThrow(
      'PARCEL_ADMIN_TOKEN: each token must be at least 32 characters',
    );
    expect(loadSettings({ PARCEL_ADMIN_PORT: '0', PARCEL_ADMIN_HOST: '10.0.0.1' }).admin).toMatchObject({
      port: 0,
      host: '10.0.0.1',
    });
  });

  test('PARCEL_TRUST_PROXY: off by default, a number of hops, or the addresses to believe', () => {
    expect(loadSettings({}).trustProxy).toBe(false);
    expect(loadSettings({ PARCEL_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadSettings({ PARCEL_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadSettings({ PARCEL_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });
});
