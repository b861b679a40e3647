/** The master key (KEK) is missing, malformed or unreadable. The message names the variable or file, never the key. */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyError';
  }
}

/**
 * A key store (or one of its data keys) was wrapped under another master key than the one
 * configured. Nothing is unwrapped; the ids are fingerprints of the master keys, not key material.
 */
export class WrongMasterKeyError extends Error {
  readonly expectedMasterKeyId: string;
  readonly actualMasterKeyId: string;
  constructor(what: string, expectedMasterKeyId: string, actualMasterKeyId: string) {
    super(
      `${what} was wrapped under master key ${expectedMasterKeyId}, but the configured master key is ${actualMasterKeyId}: ` +
        'set PARCEL_MASTER_KEY or PARCEL_MASTER_KEY_FILE to the master key the key store was created with',
    );
    this.name = 'WrongMasterKeyError';
    this.expectedMasterKeyId = expectedMasterKeyId;
    this.actualMasterKeyId = actualMasterKeyId;
  }
}

/** A wrapped data key does not authenticate under its master key: the stored bytes were altered or moved. */
export class KeyUnwrapError extends Error {
  readonly keyId: string;
  constructor(keyId: string, reason: string) {
    super(`cannot unwrap data key ${keyId}: ${reason}`);
    this.name = 'KeyUnwrapError';
    this.keyId = keyId;
  }
}

/** A sealed value does not open: another key, another AAD, a damaged or truncated value. */
export class UnsealError extends Error {
  constructor(reason: string) {
    super(`cannot unseal: ${reason}`);
    this.name = 'UnsealError';
  }
}
