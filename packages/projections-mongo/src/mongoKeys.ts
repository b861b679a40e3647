/** What the Mongo adapter's collections share: keys that match exactly, and telling duplicate keys apart. */
import { MongoServerError } from 'mongodb';

const duplicateKey = 11000;

/** The index a duplicate-key error names (MongoDB and mongo-java-server both write `index: <name> dup key`). */
export const duplicateIndexIn = (code: unknown, message: string): string | undefined =>
  code === duplicateKey ? /index: (\S+) dup key/.exec(message)?.[1] : undefined;

export const duplicateIndex = (error: unknown): string | undefined =>
  error instanceof MongoServerError ? duplicateIndexIn(error.code, error.message) : undefined;

/** Two strings as one that cannot be read two ways, whatever characters they hold (`["a","b"]`). */
export const pairKey = (first: string, second: string): string => JSON.stringify([first, second]);

/**
 * Whether `value` is a string BSON can store exactly. UTF-8 turns a lone surrogate into U+FFFD,
 * so such a key could match another one; and a non-string (a type error upstream) could be an operator.
 */
export const isKey = (value: unknown): value is string => typeof value === 'string' && value.isWellFormed();
