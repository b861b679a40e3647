const SGT_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The last second formatted and its text: an order formats the same second many times (its events, its view). */
let lastSecond = Number.NaN;
let lastText = '';

/** Singapore time, ISO 8601, seconds precision, explicit offset: `2026-11-22T14:05:09+08:00`. */
export function formatSgt(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  // An invalid date (NaN) never equals the last second, so it throws as toISOString does.
  if (second !== lastSecond) {
    lastText = new Date(second * 1000 + SGT_OFFSET_MS).toISOString().slice(0, 19) + '+08:00';
    lastSecond = second;
  }
  return lastText;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
