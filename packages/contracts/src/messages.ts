/** Every message text of the interface, in one place. Texts are contract: change none without the spec. */

export const A = {
  success: 'Success',
  tokenError: 'Token error',
  trackingNumberRequire: 'TrackingNumber require',
  trackingNumberInvalid: 'TrackingNumber invalid',
  parcelNotFound: 'Parcel not found',
  cannotUndergoOperation: 'The package cannot undergo this operation',
  /** A label of a parcel whose personal data was erased. */
  personalDataErased: 'Personal data erased',
  invalidCredentials: 'Invalid credentials',
  /** The generic server-error message; the mailbox is configurable (PARCEL_SUPPORT_EMAIL). */
  genericError: (mailbox: string) => `Error encountered, please contact ${mailbox}`,
  require: (field: string) => `${field} require`,
  invalid: (field: string) => `${field} invalid`,
  maxSize: (field: string, max: number) => `max size of ${field} must be ${max}`,
} as const;

export const B = {
  success: 'success',
  fail: 'fail',
  apiNotFound: 'Api not found',
  somethingError: 'something error',
  orderNotFound: 'Order Not Found!',
  permissionDenied: 'Permission denied',
  trackingNumsRequired: 'tracking_nums required',
  batchCancelMaximum: 'Batch Cancel Maximum 100 tracking nums',
  batchEraseMaximum: 'Batch Erase Maximum 100 tracking nums',
  /** A label of a parcel whose personal data was erased: there is no one left to address it to. */
  personalDataErased: 'Personal data erased',
  serverError: 'server error',
  require: (field: string) => `${field} require`,
  invalid: (field: string) => `${field} invalid`,
  clientSizeInvalid: 'Client Size invalid',
  itemRequire: (row: number | string, field: string) => `Item ${row} ${field} require`,
  itemInvalid: (row: number | string, field: string) => `Item ${row} ${field} invalid`,
  countryNotAllowed: (country: string) => `recipient_country(${country}) not allow`,
  serviceCodeInvalid: 'Service code invalid',
  serviceCodeValueInvalid: (code: string) => `Service code (${code}) invalid`,
  referenceExists: (ref: string) => `custom_tracking_num (${ref}) already exist`,
  batchLimit: (n: number) => `The one-time push order data cannot exceed ${n} pieces`,
  authRequired: (header: string) => `${header}: REQUIRED`,
  authInvalid: (header: string) => `${header}: INVALID`,
  authTimeout: (header: string) => `${header}: TIMEOUT`,
  // Many labels in one document (get-shipping-labels).
  batchLabelMaximum: 'Batch Label Maximum 100 tracking nums',
  /** A4 sheets are a PDF's: a ZPL printer prints on its own stock. */
  layoutNeedsPdf: 'layout (a4-4up) needs format pdf',
  /** A parcel of a self-label service: the same text as create-label's (interface A). */
  cannotUndergoOperation: A.cannotUndergoOperation,
} as const;

export const Remarks = {
  noRecord: 'No Record(s)',
  canceled: 'Canceled',
  notFoundInPartner: 'Not Found In Partner System',
  cancelFail: 'Cancel Fail',
  /** On an end-of-day manifest: its carrier takes it with the others (docs/bulk.md). */
  onManifest: 'On Manifest',
} as const;

/** The carrier callback's own answers (decisions.md, carrier events); it uses interface B's envelope. */
export const Callback = {
  unknownCarrier: 'Unknown carrier',
  signatureHeader: 'X-Carrier-Signature',
} as const;

/** Idempotency-Key answers, the same text on both interfaces. */
export const Idempotency = {
  header: 'Idempotency-Key',
  invalid: 'Idempotency-Key invalid',
  reused: (key: string) => `Idempotency-Key (${key}) already used for a different request`,
  inProgress: (key: string) => `Idempotency-Key (${key}) is in use by a request still in progress`,
} as const;

/** Not part of either table: system errors of the HTTP layer (decisions.md, HTTP statuses). */
export const Http = {
  invalidJson: 'Invalid JSON body',
  bodyTooLarge: 'Request body too large',
  rateLimited: 'Too many requests',
  /** Authentication refused unseen after repeated failures for the API name or the address (docs/operations.md). */
  authLocked: 'Too many failed authentication attempts, try again later',
} as const;
