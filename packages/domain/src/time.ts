const SGT_OFFSET_MS = 8 * 60 * 60 * 1000;

/** Singapore time, ISO 8601, seconds precision, explicit offset: `2026-11-22T14:05:09+08:00`. */
export function formatSgt(date: Date): string {
  return new Date(date.getTime() + SGT_OFFSET_MS).toISOString().slice(0, 19) + '+08:00';
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
