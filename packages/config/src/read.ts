/** Reading one variable, for both wirings' settings. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new SettingsError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new SettingsError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

export function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new SettingsError(`${name} is required by the distributed services`);
  return value;
}

/** A comma-separated list of integers >= min, e.g. a retry schedule. */
export function integers(env: NodeJS.ProcessEnv, name: string, fallback: readonly number[], min: number): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return [...fallback];
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < min))
    throw new SettingsError(`${name} must be integers >= ${min} separated by commas, got "${raw}"`);
  return values;
}
