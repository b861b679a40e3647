/**
 * How long a parcel's personal data is kept (docs/personal-data.md): a number of days after the
 * parcel's final status (delivered, returned to sender, cancelled), and at most a number of days
 * after its creation for a parcel that never reaches one. After that it is erased without a request.
 */

/** The statuses after which nothing more happens to a parcel. */
export const FINAL_STATUS_CODES: ReadonlySet<string> = new Set(['DL_DL', 'RS_RS', 'CN_CN']);

/**
 * When a parcel reached a final status: the time of the earliest of its activities with one, as
 * the activity gives it (Singapore time); undefined while it has none.
 */
export function finalAtOf(activities: readonly { dateTime: string; statusCode: string }[]): string | undefined {
  let first: string | undefined;
  for (const { dateTime, statusCode } of activities)
    if (FINAL_STATUS_CODES.has(statusCode) && (first === undefined || Date.parse(dateTime) < Date.parse(first)))
      first = dateTime;
  return first;
}

export interface RetentionPolicy {
  /** Days kept after the final status; 0 erases at the first sweep after it. */
  afterFinalDays: number;
  /** Days kept after creation, final status or not. */
  maxDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a parcel's personal data falls due for erasure. */
export function retentionDueAt(policy: RetentionPolicy, parcel: { createdAt: Date; finalAt?: Date | undefined }): Date {
  const byMax = parcel.createdAt.getTime() + policy.maxDays * DAY_MS;
  const byFinal = parcel.finalAt ? parcel.finalAt.getTime() + policy.afterFinalDays * DAY_MS : Infinity;
  return new Date(Math.min(byMax, byFinal));
}

/**
 * The two cut-offs a sweep at `now` asks the views for: parcels created at or before
 * `createdBefore`, and parcels whose final status came at or before `finalBefore`, are due (a
 * parcel is due from the instant `retentionDueAt` gives).
 */
export function retentionCutoffs(policy: RetentionPolicy, now: Date): { createdBefore: Date; finalBefore: Date } {
  return {
    createdBefore: new Date(now.getTime() - policy.maxDays * DAY_MS),
    finalBefore: new Date(now.getTime() - policy.afterFinalDays * DAY_MS),
  };
}
