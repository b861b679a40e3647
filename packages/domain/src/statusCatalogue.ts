/** Status codes and English descriptions (decisions.md, "Status codes"). Clients branch on the code. */
export const STATUS = {
  DR_DR: 'Data Received via API',
  LB_GN: 'Shipping label generated',
  CN_CN: 'Order cancelled',
  /** Closed on the carrier's end-of-day manifest (create-manifest): handed over with it, no longer cancellable. */
  MF_MF: 'Closed on the carrier’s end-of-day manifest',
  PU_PU: 'Parcel picked up',
  IT_IT: 'Parcel in transit',
  OD_OD: 'Out for delivery',
  DL_DL: 'Parcel delivered',
  FD_BA: 'Parcel has a bad recipient address',
  FD_NA: 'Delivery failed, recipient not available',
  RS_RS: 'Returned to sender',
} as const;

export type StatusCode = keyof typeof STATUS;

/** The description of a known code; an unknown carrier code is shown as sent. */
export const statusDescription = (code: string): string =>
  Object.hasOwn(STATUS, code) ? STATUS[code as StatusCode] : code;
