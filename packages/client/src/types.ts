/**
 * Names for the schemas of docs/openapi.json, read off the generated types, so the client's
 * signatures follow the document: a field the gateway adds or drops changes them with
 * `npm run reference`.
 */
import type { components, operations } from './generated/openapi.ts';

type Schemas = components['schemas'];
/** The JSON body an operation of the document takes. */
type JsonBody<Id extends keyof operations> = operations[Id] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type { components, operations, paths } from './generated/openapi.ts';

// Interface B
export type Order = Schemas['Order'];
export type OrderItem = Schemas['OrderItem'];
export type OrderLockerStation = Schemas['OrderLockerStation'];
export type CreateOrderResult = Schemas['CreateOrderResult'];
export type CreateOrdersResult = Schemas['CreateOrdersResult'];
export type BatchEntry = Schemas['BatchEntry'];
export type StatusRecordB = Schemas['StatusRecordB'];
export type ActivityB = Schemas['ActivityB'];
export type LockerStationB = Schemas['LockerStationB'];
export type MultiStatusResult = Schemas['MultiStatusResult'];
/** The data of query-status's `fail`: the number and `No Record(s)`. */
export type QueryStatusMiss = Schemas['QueryStatusMiss'];
export type Station = Schemas['Station'];
export type CancelResult = Schemas['CancelResult'];
export type PdfLabel = Schemas['PdfLabel'];
export type HtmlLabel = Schemas['HtmlLabel'];
export type ZplLabel = Schemas['ZplLabel'];
export type BarcodeResult = Schemas['BarcodeResult'];
/** import-orders' and get-import's answer: the import's state, counts and rejected rows. */
export type ImportResult = Schemas['ImportResult'];
/** create-manifest's and get-manifest's answer: the manifest, its PDF (Base64) and its CSV. */
export type ManifestResult = Schemas['ManifestResult'];
/** A manifest in list-manifests' answer, without its documents. */
export type ManifestSummary = Schemas['ManifestSummary'];
/** Many labels in one document: the PDF or ZPL, the numbers labelled, and the others with their remarks. */
export type LabelsResult = Schemas['LabelsResult'];
/** The document's format (`pdf` when left out) and, for a PDF, its pages (`label`, the default, or `a4-4up`). */
export type ShippingLabelsOptions = Omit<JsonBody<'getShippingLabels'>, 'tracking_nums'>;
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** The answer of create and rotate: the endpoint and its signing secret, shown only then. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type CreateWebhookEndpointRequest = JsonBody<'createWebhookEndpoint'>;
export type UpdateWebhookEndpointRequest = JsonBody<'updateWebhookEndpoint'>;
export type WebhookMessage = Schemas['WebhookMessage'];
export type WebhookMessagesPage = Schemas['WebhookMessagesPage'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookAttemptsPage = Schemas['WebhookAttemptsPage'];
export type RedeliveredWebhookMessage = Schemas['RedeliveredWebhookMessage'];
export type WebhookReplay = Schemas['WebhookReplay'];

// Interface A
export type TokenResult = Schemas['TokenResult'];
export type StatusRecordA = Schemas['StatusRecordA'];
export type ActivityA = Schemas['ActivityA'];
export type StatusLookupResult = Schemas['StatusLookupResult'];
export type TrackingNumberResult = Schemas['TrackingNumberResult'];
export type CreateLabelResult = Schemas['CreateLabelResult'];
/**
 * The document leaves Direction open (the server answers any other value with its generic error);
 * the client names the two that render: `vertical` (portrait) and `horizontal` (landscape, the default).
 */
export type CreateLabelRequest = Omit<JsonBody<'createLabel'>, 'Direction'> & {
  Direction?: 'horizontal' | 'vertical';
};

// Operator API
export type Account = Schemas['Account'];
export type ApiKey = Schemas['ApiKey'];
/** A key as issued: its secret, shown this once. */
export type IssuedKey = Schemas['IssuedKey'];
/** The answer of create-account: the account and its first key. */
export type CreatedAccount = Schemas['CreatedAccount'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
/** An RFC 9457 problem document: what the operator API answers on failure. */
export type Problem = Schemas['Problem'];
type CreateAccountBody = JsonBody<'createAccount'>;
type Defaulted = 'weightUnit' | 'serviceTypes' | 'canCancel';
/** The document gives weightUnit, serviceTypes and canCancel defaults (`kg`, every type, no): the client may leave them out. */
export type CreateAccountRequest = Omit<CreateAccountBody, Defaulted> & Partial<Pick<CreateAccountBody, Defaulted>>;
/** The settings to change; `null` clears an optional one back to the service's own. */
export type UpdateAccountRequest = JsonBody<'updateAccount'>;

// Shared
export type TrackingNumber = Schemas['TrackingNumber'];
export type StatusCode = Schemas['StatusCode'];
export type SgtTime = Schemas['SgtTime'];
