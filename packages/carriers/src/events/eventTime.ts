const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * ISO 8601 date-time with `Z` or an offset; a local time without one is ambiguous and refused.
 * Checked field by field because Date rolls 2026-02-30 over to March instead of refusing it.
 */
export function parseEventTime(value: string): Date | undefined {
  const m = ISO.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, , offH, offM] = m
    .slice(1)
    .map((x) => (x === undefined ? 0 : Number(x))) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return undefined;
  if (hour! > 23 || minute! > 59 || second! > 59 || offH! > 14 || offM! > 59) return undefined;
  const normalized = m[7] ? value.replace(/([+-]\d{2}):?(\d{2})$/, '$1:$2') : value;
  const at = new Date(normalized);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
