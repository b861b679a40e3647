/**
 * Importing a port never loads a database driver or a Kafka client: each adapter is a package of
 * its own, and only composition roots import adapters. A child `node` records every module it
 * resolves while importing one entry point; the adapters are the control that the record works.
 */
import { execFile } from 'node:child_process';

const DRIVERS = ['pg', 'node:sqlite', 'mongodb', 'kafkajs', '@platformatic/kafka', '@kurrent/kurrentdb-client'];

const script = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
await import(process.argv[1]);
process.stdout.write(JSON.stringify([...seen]));
`;

/** The drivers a fresh process resolves while importing `entry` (resolved from test/). */
function driversLoadedBy(entry: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, entry],
      { cwd: __dirname, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${entry}: ${error.message}\n${stderr}`));
        const seen = JSON.parse(stdout) as string[];
        resolve(DRIVERS.filter((driver) => seen.includes(driver)).sort());
      },
    );
  });
}

describe('a port or a service loads no driver', () => {
  it.each([
    '@parcel-logistics/eventstore',
    '@parcel-logistics/bus',
    '@parcel-logistics/projections',
    '@parcel-logistics/application',
    '@parcel-logistics/telemetry',
    '@parcel-logistics/gateway',
    '@parcel-logistics/order',
    '@parcel-logistics/tracking',
    '@parcel-logistics/webhooks',
    '@parcel-logistics/webhook',
    // The key store's port, its crypto and its cache; its adapters are entry points of their own.
    '@parcel-logistics/keys',
  ])(
    '%s',
    async (entry) => {
      expect(await driversLoadedBy(entry)).toEqual([]);
    },
    60_000,
  );
});

describe('each adapter loads its own driver and no other', () => {
  it.each([
    ['@parcel-logistics/eventstore-sqlite', ['node:sqlite']],
    ['@parcel-logistics/eventstore-postgres', ['pg']],
    ['@parcel-logistics/eventstore-kurrentdb', ['@kurrent/kurrentdb-client']],
    ['@parcel-logistics/bus-kafka', ['kafkajs']],
    ['@parcel-logistics/bus-kafka/platformatic', ['@platformatic/kafka']],
    ['@parcel-logistics/projections-sqlite', ['node:sqlite']],
    ['@parcel-logistics/projections-mongo', ['mongodb']],
    ['@parcel-logistics/webhooks-sqlite', ['node:sqlite']],
    ['@parcel-logistics/webhooks-postgres', ['pg']],
    ['@parcel-logistics/keys/sqlite', ['node:sqlite']],
    ['@parcel-logistics/keys/postgres', ['pg']],
  ])(
    '%s: %j',
    async (entry, drivers) => {
      expect(await driversLoadedBy(entry)).toEqual([...drivers].sort());
    },
    60_000,
  );
});
