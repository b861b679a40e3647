/**
 * The events of an import's stream, beside its decider (decider.ts). An import's orders are kept in
 * batch streams of their own, one per part (OrderBatchAccepted with `importRows`), so that the
 * import's own stream, read for its progress, holds counts and messages only: nothing personal.
 */

/** A row of the file that was not created, with create-order's message. */
export interface RejectedRow {
  /** The row's number in the file: 1 is the first row under the header. */
  row: number;
  /** The row's custom_tracking_num as sent ('' when it had none). */
  reference: string;
  message: string;
}

/** The file was read and its rows validated: `accepted` orders wait in `parts` batch streams. */
export interface OrderImportAccepted {
  type: 'OrderImportAccepted';
  data: {
    importId: string;
    clientId: string;
    /** Data rows in the file (the header not counted). */
    rows: number;
    /** Rows that passed create-order's validation; the other `rows - accepted` were refused. */
    accepted: number;
    parts: number;
    /** The first of the rows refused by validation, in file order (all of them up to the answers' list limit). */
    rejected: RejectedRow[];
    acceptedAt: Date;
  };
}

/** The orders of one part were created: how many, and the rows refused on creation (a reference taken meanwhile). */
export interface OrderImportPartCreated {
  type: 'OrderImportPartCreated';
  data: { importId: string; part: number; created: number; rejected: RejectedRow[]; createdAt: Date };
}

/** Every part is created: the import is finished. */
export interface OrderImportFinished {
  type: 'OrderImportFinished';
  data: { importId: string; finishedAt: Date };
}

export type OrderImportEvent = OrderImportAccepted | OrderImportPartCreated | OrderImportFinished;
