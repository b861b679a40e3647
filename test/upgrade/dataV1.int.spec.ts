/**
 * Stored events are forever: a data directory written by the
 * code that stored `ParcelRegistered.v1` (test/fixtures/dataV1, made by its make.ts) opens with
 * today's code and answers every endpoint as it did then, whether its projections are kept or
 * rebuilt from the event log.
 */
import {
  answersOf,
  copyData,
  downstreamOf,
  expectRecordedAnswers,
  FIXTURE_DIR,
  recordedIn,
} from '../fixtures/dataV1/open.ts';

// Each test starts the embedded stack on a copy of the directory (one rebuilds its views): more than jest's 5 s on a slow host.
jest.setTimeout(30_000);

const { manifest, recorded, downstream } = recordedIn(FIXTURE_DIR);

test('the directory opens and every endpoint answers as it did when it was written', async () => {
  const answers = await answersOf(copyData(), manifest);
  expectRecordedAnswers(answers, recorded);
  expect(Object.keys(answers)).toEqual(Object.keys(recorded));
});

test('its projections rebuilt from the stored events answer the same', async () => {
  const answers = await answersOf(copyData({ rebuild: true }), manifest);
  expectRecordedAnswers(answers, recorded);
});

test('its stored events go out on parcel.events.v1 byte for byte as they did', async () => {
  expect(await downstreamOf(copyData())).toEqual(downstream);
});
