/** The carrier port of the order service; one adapter per carrier API. */

export interface ShipmentToRegister {
  trackingNumber: string;
  carrier: string;
  recipientCountry: string;
  postalCode: string;
  recipientName: string;
  instruction: string;
}

/** `permanent: false`: the carrier could not be asked (outage, timeout, 5xx); try again later. */
export type RegisterResult =
  { ok: true; partnerTrackingNo: string; partnerName: string } | { ok: false; permanent: boolean; reason: string };

export type CancelOutcome = { cancelled: true } | { cancelled: false; message: string };

/** `ok: true` holds an outcome for every number asked; `ok: false`: the batch as a whole failed. */
export type CancelResult = { ok: true; outcomes: Map<string, CancelOutcome> } | { ok: false; reason: string };

export interface CarrierClient {
  /**
   * Registers shipments, all asked in as few requests as the carrier's API allows: a result for
   * each, in the same order.
   */
  register(shipments: readonly ShipmentToRegister[]): Promise<RegisterResult[]>;
  cancel(partnerTrackingNos: string[]): Promise<CancelResult>;
}
