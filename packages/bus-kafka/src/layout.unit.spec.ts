import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/**
 * One folder per Kafka client, and what both share in a third that names neither. Each entry
 * loads only its own client (test/ports.int.spec.ts); this also keeps type imports apart, which a
 * running process never sees. Tests may use both clients.
 */
const forbidden: Record<string, string[]> = {
  shared: ['kafkajs', '@platformatic/kafka', '../kafkajs', '../platformatic'],
  kafkajs: ['@platformatic/kafka', '../platformatic'],
  platformatic: ['kafkajs', '../kafkajs'],
};

/** The modules a file imports or re-exports, type-only ones included. */
const importsOf = (path: string) =>
  [...readFileSync(path, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)].map(
    ([, specifier]) => specifier ?? '',
  );

function sources(folder: string): string[] {
  const dir = join(__dirname, folder);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => join(dir, file));
}

describe('one folder per Kafka client', () => {
  it.each(Object.entries(forbidden))('%s/ imports none of %j', (folder, names) => {
    const files = sources(folder);
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((path) =>
      importsOf(path)
        .filter((specifier) => names.some((name) => specifier === name || specifier.startsWith(`${name}/`)))
        .map((specifier) => `${folder}/${path.split('/').at(-1)}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it('sees the imports it looks for (each client folder imports its own library)', () => {
    expect(importsOf(join(__dirname, 'kafkajs', 'index.ts'))).toContain('kafkajs');
    expect(importsOf(join(__dirname, 'platformatic', 'index.ts'))).toContain('@platformatic/kafka');
    expect(importsOf(join(__dirname, 'platformatic', 'records.ts'))).toContain('../shared/codec.ts');
  });
});
