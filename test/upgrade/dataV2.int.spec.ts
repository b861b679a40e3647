/**
 * Stored events are forever: a data directory written by the code that stored `ParcelRegistered.v2`
 * with every personal field in clear (test/fixtures/dataV2, made by its make.ts) opens with today's
 * code and answers every endpoint as it did then, whether its projections are kept or rebuilt.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ask } from '../fixtures/dataV1/probes.ts';
import type { Answers, Manifest } from '../fixtures/dataV1/probes.ts';
import { copyData, downstreamOf } from '../fixtures/dataV1/open.ts';
import { startTestStack, TestClock } from '../support/stack.ts';

const FIXTURE_DIR = path.join(import.meta.dirname, '../fixtures/dataV2');
const read = <T>(name: string): T => JSON.parse(readFileSync(path.join(FIXTURE_DIR, name), 'utf8')) as T;
const manifest = read<Manifest>('manifest.json');
const recorded = read<Answers>('answers.json');
const downstream = read<Awaited<ReturnType<typeof downstreamOf>>>('downstream.json');

async function answersOf(dataDir: string): Promise<Answers> {
  const stack = await startTestStack(
    { PARCEL_BATCH_CREATE: 'on' },
    { dataDir, clock: new TestClock(manifest.clockMs) },
  );
  try {
    await stack.caughtUp();
    return await ask(stack, manifest);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('the v2 directory opens and every endpoint answers as it did when it was written', async () => {
  const answers = await answersOf(copyData({ fixtureDir: FIXTURE_DIR }));
  for (const name of Object.keys(recorded)) expect({ name, ...answers[name] }).toEqual({ name, ...recorded[name] });
  expect(Object.keys(answers)).toEqual(Object.keys(recorded));
});

test('its projections rebuilt from the stored events answer the same', async () => {
  const answers = await answersOf(copyData({ fixtureDir: FIXTURE_DIR, rebuild: true }));
  for (const name of Object.keys(recorded)) expect({ name, ...answers[name] }).toEqual({ name, ...recorded[name] });
});

test('its stored events go out on parcel.events.v1 byte for byte as they did', async () => {
  expect(await downstreamOf(copyData({ fixtureDir: FIXTURE_DIR }))).toEqual(downstream);
});
