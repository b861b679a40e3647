/**
 * The master key (key-encryption key, KEK) that wraps every data key: from `PARCEL_MASTER_KEY`
 * (base64 of 32 bytes) or `PARCEL_MASTER_KEY_FILE` (a file holding that text). Without either,
 * the embedded wiring keeps one in its data directory (generated on first start, mode 0600) and
 * warns; the distributed wiring refuses to start. The key's bytes are never logged nor put into
 * an error: messages name the variable or the file.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MasterKeyError } from './errors.ts';

export const MASTER_KEY_VARIABLE = 'PARCEL_MASTER_KEY';
export const MASTER_KEY_FILE_VARIABLE = 'PARCEL_MASTER_KEY_FILE';
/** The embedded wiring's files in the data directory: its generated master key and the key store. */
export const EMBEDDED_MASTER_KEY_FILE = 'master.key';
export const EMBEDDED_KEY_STORE_FILE = 'keys.db';

export interface MasterKey {
  readonly key: KeyObject;
  /** Fingerprint (16 hex digits of an HMAC under the key): tells master keys apart, reveals nothing of them. */
  readonly id: string;
  /** The same 8 bytes, as written into every wrapped data key. */
  readonly idBytes: Buffer;
  /** Where it came from: the variable, the variable's file, or the data directory's file (`generated` on first start). */
  readonly source: 'env' | 'file' | 'data-dir' | 'generated';
}

/** A logger with pino's `warn(fields, message)`. */
export interface KeysLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ResolveMasterKeyOptions {
  /** `embedded` keeps a generated key in `dataDir` when none is configured; `distributed` refuses. */
  wiring: 'embedded' | 'distributed';
  /** The embedded data directory (required for `embedded`). */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Told once per process and file when the master key lives in the data directory. */
  logger?: KeysLogger;
}

const KEY_BYTES = 32;
const ID_LABEL = 'parcel-logistics/keys master key id v1';
/** 32 bytes in standard base64: 43 symbols and one `=`. */
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

/** Builds the master key from its 32 bytes; the caller's buffer is left as it is (zero it yourself). */
export function masterKeyFromBytes(bytes: Uint8Array, source: MasterKey['source'] = 'env'): MasterKey {
  if (bytes.byteLength !== KEY_BYTES)
    throw new MasterKeyError(`a master key has ${KEY_BYTES} bytes, got ${bytes.byteLength}`);
  const key = createSecretKey(bytes);
  const idBytes = createHmac('sha256', key).update(ID_LABEL).digest().subarray(0, 8);
  return { key, id: idBytes.toString('hex'), idBytes, source };
}

/** Parses the base64 text of a master key; `where` names the variable or file in errors. */
export function parseMasterKey(text: string, where: string, source: MasterKey['source']): MasterKey {
  const trimmed = text.trim();
  if (trimmed === '')
    throw new MasterKeyError(`${where} is empty: it must hold the base64 of ${KEY_BYTES} random bytes`);
  if (!BASE64_32.test(trimmed)) {
    // Say what is wrong without echoing any of the value.
    const decoded = /^[A-Za-z0-9+/]*={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64').length : undefined;
    throw new MasterKeyError(
      `${where} must be the base64 of exactly ${KEY_BYTES} bytes (44 characters, e.g. \`openssl rand -base64 32\`), ` +
        (decoded === undefined ? 'but it is not base64' : `but it decodes to ${decoded} bytes`),
    );
  }
  const bytes = Buffer.from(trimmed, 'base64');
  try {
    return masterKeyFromBytes(bytes, source);
  } finally {
    bytes.fill(0);
  }
}

const warned = new Set<string>();

/** Resolves the master key of a wiring: see the module comment. */
export async function resolveMasterKey(options: ResolveMasterKeyOptions): Promise<MasterKey> {
  const env = options.env ?? process.env;
  const value = env[MASTER_KEY_VARIABLE];
  const file = env[MASTER_KEY_FILE_VARIABLE];
  if (value && file) {
    throw new MasterKeyError(`set one of ${MASTER_KEY_VARIABLE} and ${MASTER_KEY_FILE_VARIABLE}, not both`);
  }
  if (value) return parseMasterKey(value, MASTER_KEY_VARIABLE, 'env');
  if (file) {
    const text = await readKeyFile(file, `${MASTER_KEY_FILE_VARIABLE} (${file})`);
    await warnIfShared(file, options.logger);
    return parseMasterKey(text, `the file of ${MASTER_KEY_FILE_VARIABLE} (${file})`, 'file');
  }
  if (options.wiring === 'distributed') {
    throw new MasterKeyError(
      `${MASTER_KEY_VARIABLE} or ${MASTER_KEY_FILE_VARIABLE} must be set in the distributed wiring (the base64 of ` +
        `${KEY_BYTES} random bytes, e.g. \`openssl rand -base64 32\`): every process must wrap and unwrap data keys ` +
        'with the same master key, so none is generated. Refusing to start',
    );
  }
  if (!options.dataDir) throw new MasterKeyError('the embedded wiring needs its data directory to keep a master key');
  return dataDirMasterKey(path.resolve(options.dataDir), options.logger);
}

async function readKeyFile(file: string, where: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new MasterKeyError(`cannot read ${where}: ${code}`);
  }
}

/** Tells once when a key file can be read by the group or others. */
async function warnIfShared(file: string, logger: KeysLogger | undefined): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await stat(file);
  if ((mode & 0o077) !== 0 && !warned.has(`mode:${file}`)) {
    warned.add(`mode:${file}`);
    logger?.warn(
      { file, mode: (mode & 0o777).toString(8) },
      'the master key file can be read by other users: restrict it (chmod 600)',
    );
  }
}

async function dataDirMasterKey(dataDir: string, logger: KeysLogger | undefined): Promise<MasterKey> {
  const file = path.join(dataDir, EMBEDDED_MASTER_KEY_FILE);
  const where = `the master key file ${file}`;
  const tell = (message: string) => {
    if (warned.has(file)) return;
    warned.add(file);
    logger?.warn({ file }, message);
  };
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new MasterKeyError(`cannot read ${where}: ${error.code ?? String(error)}`);
  });
  if (existing !== undefined) {
    await warnIfShared(file, logger);
    tell(
      `${MASTER_KEY_VARIABLE} is not set: the master key is read from the data directory, so a copy of the ` +
        'directory holds both the personal data and its key; set PARCEL_MASTER_KEY or PARCEL_MASTER_KEY_FILE and keep the key elsewhere',
    );
    return parseMasterKey(existing, where, 'data-dir');
  }
  // A key store without its master key must not get a fresh one: it would wrap new keys under
  // another master key than the old ones, and the old ones would stay unreadable.
  const store = path.join(dataDir, EMBEDDED_KEY_STORE_FILE);
  if (await exists(store)) {
    throw new MasterKeyError(
      `the key store ${store} exists but its master key file ${file} is missing, and ${MASTER_KEY_VARIABLE} and ` +
        `${MASTER_KEY_FILE_VARIABLE} are not set: restore the master key (a new one cannot read the stored keys)`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const bytes = randomBytes(KEY_BYTES);
  const text = `${bytes.toString('base64')}\n`;
  // Written whole under a temporary name, then linked into place: link() never replaces a file,
  // so a concurrent first start either wins or reads the winner's complete key.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temporary, file);
    await syncDirectory(dataDir);
  } catch (error) {
    bytes.fill(0);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return dataDirMasterKey(dataDir, logger);
    throw new MasterKeyError(`cannot write ${where}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  try {
    const masterKey = masterKeyFromBytes(bytes, 'generated');
    tell(
      `${MASTER_KEY_VARIABLE} is not set: generated a master key into the data directory (mode 0600). Losing it loses ` +
        'all personal data, and a copy of the directory holds both the data and its key: back the file up apart ' +
        'from the data, or set PARCEL_MASTER_KEY or PARCEL_MASTER_KEY_FILE',
    );
    return masterKey;
  } finally {
    bytes.fill(0);
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file, constants.F_OK).then(
    () => true,
    () => false,
  );
}

async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
