import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MasterKeyError } from './errors.ts';
import { masterKeyFromBytes, resolveMasterKey, type KeysLogger } from './masterKey.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parcel-master-key-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const recorder = () => {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: KeysLogger = { warn: (fields, message) => warnings.push({ fields, message }) };
  return { warnings, logger };
};

const failure = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error,
  );

describe('resolveMasterKey', () => {
  const bytes = randomBytes(32);
  const text = bytes.toString('base64');
  const expectedId = masterKeyFromBytes(bytes).id;

  it('reads PARCEL_MASTER_KEY (surrounding blanks ignored) in either wiring, and logs nothing', async () => {
    const { warnings, logger } = recorder();
    for (const wiring of ['embedded', 'distributed'] as const) {
      const key = await resolveMasterKey({ wiring, dataDir: dir, env: { PARCEL_MASTER_KEY: ` ${text}\n` }, logger });
      expect(key).toMatchObject({ id: expectedId, source: 'env' });
      expect(key.key.export().equals(bytes)).toBe(true);
    }
    expect(warnings).toEqual([]);
  });

  it.each([
    ['not base64', 'this is not base64 at all, not even close!!', 'but it is not base64'],
    ['16 bytes', randomBytes(16).toString('base64'), 'but it decodes to 16 bytes'],
    ['33 bytes', randomBytes(33).toString('base64'), 'but it decodes to 33 bytes'],
    [
      'base64url',
      text.replaceAll('+', '-').replaceAll('/', '_') + (/[+/]/.test(text) ? '' : '-'),
      'but it is not base64',
    ],
    ['empty', '   ', 'PARCEL_MASTER_KEY is empty'],
  ])('refuses a PARCEL_MASTER_KEY that is %s, naming the variable and never the value', async (_, value, says) => {
    const error = await failure(resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY: value } }));
    expect(error).toBeInstanceOf(MasterKeyError);
    expect(error.message).toContain('PARCEL_MASTER_KEY');
    expect(error.message).toContain(says);
    if (value.trim()) expect(error.message).not.toContain(value.trim().slice(0, 8));
  });

  it('reads PARCEL_MASTER_KEY_FILE, warning once when others can read the file', async () => {
    const file = join(dir, 'kek');
    await writeFile(file, `${text}\n`, { mode: 0o600 });
    const { warnings, logger } = recorder();
    expect(
      await resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY_FILE: file }, logger }),
    ).toMatchObject({ id: expectedId, source: 'file' });
    expect(warnings).toEqual([]);
    await chmod(file, 0o644);
    await resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY_FILE: file }, logger });
    await resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY_FILE: file }, logger });
    expect(warnings).toEqual([{ fields: { file, mode: '644' }, message: expect.stringContaining('chmod 600') }]);
  });

  it('names PARCEL_MASTER_KEY_FILE and its path when the file is missing or malformed', async () => {
    const missing = join(dir, 'missing');
    expect(
      (await failure(resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY_FILE: missing } }))).message,
    ).toBe(`cannot read PARCEL_MASTER_KEY_FILE (${missing}): ENOENT`);
    const short = join(dir, 'short');
    await writeFile(short, randomBytes(31).toString('base64'), { mode: 0o600 });
    const error = await failure(resolveMasterKey({ wiring: 'distributed', env: { PARCEL_MASTER_KEY_FILE: short } }));
    expect(error.message).toContain(
      `the file of PARCEL_MASTER_KEY_FILE (${short}) must be the base64 of exactly 32 bytes`,
    );
  });

  it('refuses both variables at once', async () => {
    const env = { PARCEL_MASTER_KEY: text, PARCEL_MASTER_KEY_FILE: join(dir, 'kek') };
    await expect(resolveMasterKey({ wiring: 'embedded', dataDir: dir, env })).rejects.toThrow(
      'set one of PARCEL_MASTER_KEY and PARCEL_MASTER_KEY_FILE, not both',
    );
  });

  it('distributed: refuses to start without a master key', async () => {
    const error = await failure(resolveMasterKey({ wiring: 'distributed', dataDir: dir, env: {} }));
    expect(error).toBeInstanceOf(MasterKeyError);
    expect(error.message).toMatch(/^PARCEL_MASTER_KEY or PARCEL_MASTER_KEY_FILE must be set in the distributed wiring/);
    expect(error.message).toMatch(/Refusing to start$/);
  });

  it('embedded: generates a key into the data directory (mode 0600), warns once, and reads it back after', async () => {
    const dataDir = join(dir, 'data');
    const { warnings, logger } = recorder();
    const generated = await resolveMasterKey({ wiring: 'embedded', dataDir, env: {}, logger });
    expect(generated.source).toBe('generated');
    const file = join(dataDir, 'master.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64').equals(generated.key.export())).toBe(true);
    const again = await resolveMasterKey({ wiring: 'embedded', dataDir, env: {}, logger });
    expect(again).toMatchObject({ id: generated.id, source: 'data-dir' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toEqual({ fields: { file }, message: expect.stringContaining('generated a master key') });
    // The key itself is nowhere in what was logged.
    expect(JSON.stringify(warnings)).not.toContain((await readFile(file, 'utf8')).trim());
  });

  it('embedded: two concurrent first starts end up with one key', async () => {
    const keys = await Promise.all(
      [1, 2, 3].map(() => resolveMasterKey({ wiring: 'embedded', dataDir: dir, env: {} })),
    );
    expect(new Set(keys.map((k) => k.id)).size).toBe(1);
    expect(await readdir(dir)).toEqual(['master.key']);
  });

  it('embedded: a key store without its master key file is refused, not given a new key', async () => {
    await writeFile(join(dir, 'keys.db'), '');
    const error = await failure(resolveMasterKey({ wiring: 'embedded', dataDir: dir, env: {} }));
    expect(error.message).toContain('exists but its master key file');
    expect(error.message).toContain('restore the master key');
  });
});
