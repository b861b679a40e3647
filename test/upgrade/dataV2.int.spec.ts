/**
 * Stored events are forever: a data directory written by the code that stored `ParcelRegistered.v2`
 * with every personal field in clear (test/fixtures/dataV2, made by its make.ts) opens with today's
 * code and answers every endpoint as it did then, whether its projections are kept or rebuilt.
 */
import path from 'node:path';
import { answersOf, copyData, downstreamOf, expectRecordedAnswers, recordedIn } from '../fixtures/dataV1/open.ts';

const FIXTURE_DIR = path.join(import.meta.dirname, '../fixtures/dataV2');
const { manifest, recorded, downstream } = recordedIn(FIXTURE_DIR);
const env = { PARCEL_BATCH_CREATE: 'on' };

test('the v2 directory opens and every endpoint answers as it did when it was written', async () => {
  const answers = await answersOf(copyData({ fixtureDir: FIXTURE_DIR }), manifest, env);
  expectRecordedAnswers(answers, recorded);
  expect(Object.keys(answers)).toEqual(Object.keys(recorded));
});

test('its projections rebuilt from the stored events answer the same', async () => {
  const answers = await answersOf(copyData({ fixtureDir: FIXTURE_DIR, rebuild: true }), manifest, env);
  expectRecordedAnswers(answers, recorded);
});

test('its stored events go out on parcel.events.v1 byte for byte as they did', async () => {
  expect(await downstreamOf(copyData({ fixtureDir: FIXTURE_DIR }))).toEqual(downstream);
});
