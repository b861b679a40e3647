export * from './port.ts';
export * from './errors.ts';
export * from './masterKey.ts';
export { unwrapDataKey, wrapDataKey, WRAP_VERSION, WRAPPED_LENGTH } from './wrap.ts';
export { seal, unseal, SEAL_VERSION } from './seal.ts';
export { cachedKeyStore, type CachedKeyStore, type KeyCacheOptions } from './cache.ts';
