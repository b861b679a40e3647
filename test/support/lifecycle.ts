/** Test fixtures that live as long as a test file. */

/**
 * What `start` makes before the file's tests, `stop`ped after them; the getter throws when read
 * before it is made (outside a test).
 */
export function forFile<T>(start: () => Promise<T>, stop: (value: T) => Promise<void> | void): () => T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  afterAll(async () => {
    if (value !== undefined) await stop(value);
  });
  return () => {
    if (value === undefined) throw new Error('made before the tests (beforeAll): read it inside a test');
    return value;
  };
}
