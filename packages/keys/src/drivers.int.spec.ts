/**
 * The port, the crypto and the cache load no database driver; each adapter loads its own only
 * (as test/ports.int.spec.ts checks for the other ports). A child `node` records every module it
 * resolves while importing one entry point of this package.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';

const DRIVERS = ['pg', 'node:sqlite', 'mongodb', 'kafkajs', '@platformatic/kafka', '@kurrent/kurrentdb-client'];

const script = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
await import(process.argv[1]);
process.stdout.write(JSON.stringify([...seen]));
`;

function driversLoadedBy(entry: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // From the package's own directory, the package resolves its own name (self-reference).
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

describe('@parcel-logistics/keys loads a driver only through an adapter entry point', () => {
  it.each([
    ['@parcel-logistics/keys', []],
    ['@parcel-logistics/keys/sqlite', ['node:sqlite']],
    ['@parcel-logistics/keys/postgres', ['pg']],
  ])(
    '%s: %j',
    async (entry, drivers) => {
      expect(await driversLoadedBy(entry)).toEqual(drivers);
    },
    60_000,
  );
});
