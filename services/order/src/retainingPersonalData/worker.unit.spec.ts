/** The retention sweep's slots and settings. */
import { loadSettings } from '@parcel-logistics/config';
import { retentionSettingsOf, sweepSlot } from './worker.ts';

test('a slot starts at a multiple of the sweep period: every instant of it names the same slot', () => {
  const hour = 60 * 60 * 1000;
  const start = Date.parse('2026-11-22T06:00:00Z');
  expect(sweepSlot(new Date(start), hour)).toEqual(new Date(start));
  expect(sweepSlot(new Date(start + hour - 1), hour)).toEqual(new Date(start));
  expect(sweepSlot(new Date(start + hour), hour)).toEqual(new Date(start + hour));
  expect(sweepSlot(new Date(start + 250), 200)).toEqual(new Date(start + 200));
});

test('the sweep takes its policy and period from the personal-data settings', () => {
  const defaults = loadSettings({}).personalData;
  expect(retentionSettingsOf(defaults)).toEqual({ afterFinalDays: 90, maxDays: 365, sweepMs: 60 * 60 * 1000 });
  const set = loadSettings({
    PARCEL_PERSONAL_DATA_RETENTION_DAYS: '0',
    PARCEL_PERSONAL_DATA_MAX_DAYS: '30',
    PARCEL_RETENTION_SWEEP_MS: '200',
  }).personalData;
  expect(retentionSettingsOf(set)).toEqual({ afterFinalDays: 0, maxDays: 30, sweepMs: 200 });
});
