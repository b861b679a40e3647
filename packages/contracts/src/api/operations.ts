/**
 * Every operation of the HTTP surface, once: path, method, security, the schemas that validate its
 * request and shape its answer, the errors it can answer, and worked examples. The gateway mounts
 * its routes from this list, and the OpenAPI document is generated from it, so neither can name an
 * endpoint the other lacks. Example values come from `SAMPLE`; the contract tests send every
 * example to a running server with the samples replaced by real numbers.
 */
import { z } from 'zod';
import { A, B, Callback, Http, Idempotency, Remarks } from '../messages.ts';
import {
  CancelOrdersRequest,
  ErasePersonalDataRequest,
  CarrierEventBody,
  CreateLabelRequest,
  CreateOrdersRequest,
  CustomTrackingNumQuery,
  QueryMultiStatusRequest,
  StationsQuery,
  StatusLookupRequest,
  TokenRequest,
  TrackingNumberRequest,
  TrackingNumQuery,
} from '../requests.ts';
import { trackingOperations } from './trackingOperations.ts';
import { labelOperations } from './labelOperations.ts';
import { orderRulesMarkdown } from '../validation/orderReference.ts';
import {
  Alive,
  BarcodeResult,
  CancelResult,
  CarrierEventResult,
  CreateLabelResult,
  CreateOrderResult,
  CreateOrdersResult,
  failureBWith,
  HtmlLabel,
  MultiStatusResult,
  NotReady,
  PdfLabel,
  QueryStatusMiss,
  Ready,
  Station,
  StatusLookupResult,
  StatusRecordB,
  successA,
  successB,
  SUPPLIED,
  TokenResult,
  TrackingNumberResult,
  ZplLabel,
} from './schemas.ts';
import { IMPORT_OPERATIONS } from './importOperations.ts';
import { WEBHOOK_LOG_OPERATIONS } from './webhookLogOperations.ts';
import { WEBHOOK_OPERATIONS } from './webhookOperations.ts';
import { MANIFEST_OPERATIONS } from './manifestOperations.ts';
import { business, failB, forAccount, okB, requiredB, signedB, trackingNumsErrors } from './operation.ts';
import type { ErrorDoc, Operation, Tag } from './operation.ts';

/** The values examples use; contract tests replace them with real ones. */
export const SAMPLE = {
  trackingNumber: 'PX7K2P9S4W8Y1Q3T55',
  /** A valid number no account has. */
  unknownTrackingNumber: 'PXB3X6H0NEVAZ2J9R9',
  reference: 'ORDER-1001',
  partnerTrackingNo: 'LMX7Q2K9D4M1X8ZP',
  accessToken: 'q3J0n7p1W9sXvYb2kLc8dE5fGh4iTj6mNo0PqRsUvWx',
  time: '2026-11-22T14:05:09+08:00',
  /** A worked signature: md5('demo' + 'demo-secret' + seed). */
  seed: '1795476000000',
  token: '68f4ba004c4354bcf241ccf970ff0f8e',
} as const;

// ---- the answers every operation of a kind shares ----

const OK = 200;

const tokenErrors: ErrorDoc[] = [
  {
    status: OK,
    code: 1003,
    message: A.tokenError,
    when: 'the bearer token is missing, unknown, expired, or superseded by a newer token of the account',
  },
];

const signatureErrors: ErrorDoc[] = [
  ...(['x-auth-name', 'x-auth-seed', 'x-auth-token'] as const).map((h) =>
    business(B.authRequired(h), `the ${h} header is missing or empty`),
  ),
  business(B.authInvalid('x-auth-name'), 'no account has this API name'),
  business(B.authInvalid('x-auth-seed'), 'the seed is not 13 digits'),
  business(B.authTimeout('x-auth-seed'), 'the seed is more than 10 minutes away from the server’s clock'),
  business(B.authInvalid('x-auth-token'), 'the token is not md5(lower(apiName) + apiKey + seed)'),
];

const bodyErrors: ErrorDoc[] = [
  { status: 400, code: 1, message: Http.invalidJson, when: 'the body is not JSON, not a JSON object, or empty' },
  { status: 413, code: 1, message: Http.bodyTooLarge, when: 'the body is over 5 MiB' },
];

const rateLimited: ErrorDoc = {
  status: 429,
  code: 1,
  message: Http.rateLimited,
  when: 'the account is over its rate limit; Retry-After says when to try again',
};

const idempotencyErrors: ErrorDoc[] = [
  business(Idempotency.invalid, 'the Idempotency-Key header is not 1 to 255 visible ASCII characters'),
  business(Idempotency.reused('<key>'), 'the key was used within 24 h with another method, path or body'),
  {
    status: 409,
    code: 1,
    message: Idempotency.inProgress('<key>'),
    when: 'a request with the same key is still being handled; retry',
  },
];

const serverError = (tag: Tag): ErrorDoc => ({
  status: 500,
  code: 1,
  message: tag === 'Interface A' ? A.genericError('<support mailbox>') : B.serverError,
  when: 'an unexpected failure; nothing is half-written',
});

const lockedOut: ErrorDoc = {
  status: 429,
  code: 1,
  message: Http.authLocked,
  when:
    'too many failed authentications for this API name or from this address: refused unseen, the same whether the name ' +
    'exists or not; Retry-After says when to try again (docs/operations.md, "Failed authentication")',
};

/** A required string of interface A, at most `max` long: missing or blank, not a string, or too long. */
const stringA = (field: string, max: number): ErrorDoc[] => [
  business(A.require(field), `${field} is missing or blank`),
  business(A.invalid(field), `${field} is not a string`),
  business(A.maxSize(field, max), `${field} is longer than ${max}`),
];

const withCommon = (op: Operation): Operation => {
  const post = op.method === 'post';
  const account = forAccount(op.security);
  return {
    ...op,
    errors: [
      ...(op.security === 'bearer' ? tokenErrors : op.security === 'signed' ? signatureErrors : []),
      ...(account ? [lockedOut] : []),
      ...op.errors,
      ...(post && account ? idempotencyErrors : []),
      ...(post ? bodyErrors : []),
      ...(account ? [rateLimited] : []),
      serverError(op.tag),
    ],
  };
};

/** An operation of interface B, with the answers every signed operation shares. */
const signedWithCommon = (op: Parameters<typeof signedB>[0]): Operation => withCommon(signedB(op));

// ---- shared example pieces ----

/** The create-order body of the examples: a book to Singapore (the benches and tests send it too). */
export const SAMPLE_ORDER = {
  custom_tracking_num: SAMPLE.reference,
  recipient_name: 'Tan Ah Kow',
  recipient_country: 'SG',
  recipient_phone: '6591234567',
  recipient_address: '1 Raffles Place',
  postal_code: '048616',
  sender_country: 'SG',
  client_size: '10,30,20',
  client_weight: 1.2,
  declared_value: 49.9,
  declared_value_currency: 'SGD',
  item: [{ description: 'Book', unitPrice: 24.95, quantity: 2, weight: 0.6, currency: 'SGD', totalValue: 49.9 }],
};

const registered = {
  status_date_time: SAMPLE.time,
  status_code: 'DR_DR',
  status_desc: 'Data Received via API',
  remarks: '',
  receive_by: '',
  pod: [],
  location: 'SG',
};
const sampleRecordB = {
  tracking_number: SAMPLE.trackingNumber,
  last_status: 'DR_DR',
  last_status_date_time: SAMPLE.time,
  activities: [registered],
  partner_tracking_no: SAMPLE.partnerTrackingNo,
  partner_name: 'LMX Express',
};
const sampleRecordA = {
  TrackingNumber: SAMPLE.trackingNumber,
  LastStatus: 'DR_DR',
  LastStatusDateTime: SAMPLE.time,
  Activities: [
    {
      StatusDateTime: SAMPLE.time,
      StatusCode: 'DR_DR',
      StatusDesc: 'Data Received via API',
      Remarks: '',
      ReceiveBy: '',
    },
  ],
};
const okA = (Data: unknown) => ({ Code: 0, Message: A.success, Data });
const failA = (Message: string, Code = 1) => ({ Code, Message, Data: [] });

export const OPERATIONS: readonly Operation[] = [
  withCommon({
    id: 'issueToken',
    tag: 'Interface A',
    method: 'post',
    path: '/api/auth/token',
    summary: 'Issue a bearer token',
    description:
      'Exchanges the account’s API name and key (the same credentials that sign interface B) for a bearer token. ' +
      'A new token replaces every older token of the account at once, on every gateway: an older one then answers `1003 Token error`. ' +
      'The server keeps only a hash of the token.',
    security: 'credentials',
    secretAnswer: true,
    body: TokenRequest,
    success: successA(TokenResult),
    errors: [
      ...stringA('ApiName', 64),
      ...stringA('ApiKey', 256),
      business(A.invalidCredentials, 'no account has this name and key'),
    ],
    examples: [
      {
        name: 'issued',
        summary: 'A token for the demo account',
        body: { ApiName: 'demo', ApiKey: 'demo-secret' },
        response: okA({
          AccessToken: SAMPLE.accessToken,
          TokenType: 'Bearer',
          ExpiresIn: 86400,
          ExpiresAt: '2026-11-23T14:05:09+08:00',
        }),
      },
      {
        name: 'wrongKey',
        summary: 'A wrong key',
        body: { ApiName: 'demo', ApiKey: 'not-the-key' },
        response: failA(A.invalidCredentials),
      },
    ],
  }),
  withCommon({
    id: 'lookUpStatus',
    label: 'A1',
    tag: 'Interface A',
    method: 'post',
    path: '/api/status/lookup',
    summary: 'Status of many parcels',
    description:
      'Resolves every number on its own, matched exactly (no case folding). Found numbers go to `Success`, the others to `Errors` ' +
      'with `No Record(s)`, together in the order sent; a number of another account reads as not found. A partial or total miss ' +
      'still answers Code 0. There is no cap on the count: the whole list is read in one query.',
    security: 'bearer',
    body: StatusLookupRequest,
    success: successA(StatusLookupResult),
    errors: [
      business(A.trackingNumberRequire, 'TrackingNumber is missing, null or an empty array'),
      business(A.trackingNumberInvalid, 'TrackingNumber is not an array of strings (a bare string included)'),
    ],
    remarks: [{ remark: Remarks.noRecord, when: 'no parcel of the account has this number' }],
    examples: [
      {
        name: 'mixed',
        summary: 'One parcel found, one not',
        body: { TrackingNumber: [SAMPLE.trackingNumber, SAMPLE.unknownTrackingNumber] },
        response: okA({
          Success: [sampleRecordA],
          Errors: [{ TrackingNumber: SAMPLE.unknownTrackingNumber, Remarks: Remarks.noRecord }],
        }),
      },
      {
        name: 'bareString',
        summary: 'A string instead of an array',
        body: { TrackingNumber: SAMPLE.trackingNumber },
        response: failA(A.trackingNumberInvalid),
      },
    ],
  }),
  withCommon({
    id: 'createLabel',
    label: 'A2',
    tag: 'Interface A',
    method: 'post',
    path: '/api/create-label',
    summary: 'CN23 customs declaration (PDF)',
    description:
      'Renders the CN23 customs declaration of a parcel as a Base64 PDF and records `LB_GN` (shipping label generated) in its history. ' +
      'The parcel is matched on the upper-cased Barcode (the platform number), with Origin equal to its sender_country and Destination ' +
      'to its recipient_country, exactly as sent. Direction `vertical` renders portrait, `horizontal` (the default) landscape; ' +
      'LabelType is checked for length only. Parcels of a self-label service cannot be labelled here.',
    security: 'bearer',
    body: CreateLabelRequest,
    success: successA(CreateLabelResult),
    errors: [
      ...stringA('Barcode', 50),
      ...stringA('LabelType', 10),
      ...stringA('Origin', 2),
      ...stringA('Destination', 2),
      business(A.genericError('<support mailbox>'), 'Direction is neither horizontal nor vertical'),
      business(A.parcelNotFound, 'no parcel of the account matches Barcode, Origin and Destination'),
      business(A.cannotUndergoOperation, 'the parcel ships under a self-label service type'),
      business(A.personalDataErased, 'the parcel’s personal data was erased (erase-personal-data, or retention)'),
      business('<renderer message>', 'the label could not be rendered'),
    ],
    examples: [
      {
        name: 'rendered',
        summary: 'A portrait CN23',
        body: {
          Barcode: SAMPLE.trackingNumber,
          LabelType: 'CN23',
          Origin: 'SG',
          Destination: 'SG',
          Direction: 'vertical',
        },
        response: okA({ Base64: 'JVBERi0xLjcKJeLjz9MK' }),
      },
      {
        name: 'otherDestination',
        summary: 'The parcel does not go to this destination',
        body: { Barcode: SAMPLE.trackingNumber, LabelType: 'CN23', Origin: 'SG', Destination: 'MY' },
        response: failA(A.parcelNotFound),
      },
    ],
  }),
  withCommon({
    id: 'lookUpTrackingNumber',
    tag: 'Interface A',
    method: 'post',
    path: '/api/tracking-number',
    summary: 'Platform number of your own reference',
    description:
      'Finds the platform tracking number of the order you created with this `custom_tracking_num`, matched exactly (case-sensitive).',
    security: 'bearer',
    body: TrackingNumberRequest,
    success: successA(TrackingNumberResult),
    errors: [...stringA('Barcode', 50), business(A.parcelNotFound, 'the account has no order with this reference')],
    examples: [
      {
        name: 'found',
        summary: 'A reference of the account',
        body: { Barcode: SAMPLE.reference },
        response: okA({ TrackingNumber: SAMPLE.trackingNumber }),
      },
      {
        name: 'unknown',
        summary: 'A reference the account never used',
        body: { Barcode: 'NO-SUCH-REF' },
        response: failA(A.parcelNotFound),
      },
    ],
  }),
  signedWithCommon({
    id: 'createOrder',
    label: 'B1',
    method: 'post',
    path: '/v1/openapi/order/create-order',
    summary: 'Create an order',
    description:
      'Validates the order, assigns a platform tracking number (`wmg_tracking_num`), routes the parcel to a carrier and records ' +
      '`DR_DR`. Once it has answered, every query endpoint sees the parcel. The reference (`custom_tracking_num`) is unique per ' +
      'account: of concurrent orders with one reference exactly one is created. Registration with the carrier follows in the ' +
      'background (partner_tracking_no fills in within seconds). The checks, in the order they run, with their messages, are in ' +
      'the Order schema and below.',
    body: z.unknown().meta({ id: SUPPLIED.order }),
    data: CreateOrderResult,
    errors: [
      business(B.require('<field>'), 'a required field is missing, null or blank'),
      business(B.invalid('<field>'), 'a field has the wrong type, length, format, range or value'),
      business(B.clientSizeInvalid, 'client_size is not three non-negative numbers separated by commas'),
      business(B.itemRequire('<row>', '<field>'), 'a required field of item row <row> (from 1) is missing'),
      business(B.itemInvalid('<row>', '<field>'), 'a field of item row <row> is invalid'),
      business(B.require('locker_station.<field>'), 'a field of locker_station is missing (locker_type A)'),
      business(
        B.invalid('locker_station.<field>'),
        'a field of locker_station is invalid; station_code must name a known station',
      ),
      business(B.countryNotAllowed('<XX>'), 'the destination is not one the platform ships to'),
      business(B.serviceCodeInvalid, 'recipient_country is US and service_code is missing or not a US code'),
      business(
        B.serviceCodeValueInvalid('<code>'),
        'recipient_country is SG and the service_code sent is not an SG code',
      ),
      business(B.referenceExists('<custom_tracking_num>'), 'the account has used this reference before'),
    ],
    appendix: (ref) => `**The checks, in order**\n\n${orderRulesMarkdown(ref)}`,
    examples: [
      {
        name: 'created',
        summary: 'A parcel to Singapore',
        body: SAMPLE_ORDER,
        response: okB({
          custom_tracking_num: SAMPLE.reference,
          wmg_tracking_num: SAMPLE.trackingNumber,
          date_time: SAMPLE.time,
          status: '',
          error: [],
        }),
      },
      {
        name: 'notAllowed',
        summary: 'A destination the platform does not serve',
        body: { ...SAMPLE_ORDER, recipient_country: 'ZZ' },
        response: failB(B.countryNotAllowed('ZZ')),
      },
      {
        name: 'badItem',
        summary: 'An item row without its unit price',
        body: { ...SAMPLE_ORDER, item: [{ ...SAMPLE_ORDER.item[0], unitPrice: null }] },
        response: failB(B.itemRequire(1, 'unitPrice')),
      },
    ],
  }),
  signedWithCommon({
    id: 'createOrders',
    label: 'B2',
    method: 'post',
    path: '/v1/openapi/order/create-orders',
    summary: 'Create orders in a batch (off by default)',
    description:
      'Off unless the service runs with `PARCEL_BATCH_CREATE=on`: until then every request answers `Api not found`. When on, each ' +
      'order gets create-order’s checks, and a reference repeated in the batch or used before is rejected with create-order’s ' +
      'message as its `reason`. The accepted orders are recorded before the answer and created from the log right after.',
    body: CreateOrdersRequest,
    data: CreateOrdersResult,
    errors: [
      business(B.apiNotFound, 'batch creation is off (the default)'),
      business(B.require('orders'), 'orders is missing or an empty array'),
      business(B.invalid('orders'), 'orders is not an array'),
      business(B.batchLimit(50), 'the batch holds more orders than PARCEL_BATCH_MAX (default 50)'),
    ],
    examples: [
      {
        name: 'mixed',
        summary: 'One order accepted, one rejected (batch creation on)',
        body: {
          orders: [
            { ...SAMPLE_ORDER, custom_tracking_num: 'ORDER-1003' },
            { ...SAMPLE_ORDER, custom_tracking_num: 'ORDER-1002', client_weight: -1 },
          ],
        },
        response: okB({
          success: [{ custom_tracking_num: 'ORDER-1003', date_time: SAMPLE.time, status: 'Accepted', error: [] }],
          errors: [
            {
              custom_tracking_num: 'ORDER-1002',
              date_time: SAMPLE.time,
              status: 'Rejected',
              error: [{ reason: B.invalid('client_weight') }],
            },
          ],
        }),
      },
    ],
  }),
  signedWithCommon({
    id: 'queryStatus',
    label: 'B3',
    method: 'get',
    path: '/v1/openapi/order/query-status',
    summary: 'Status of one parcel',
    description:
      'The parcel’s client-visible history, most recent first, with the carrier and its number once registered, and the locker ' +
      'station when the order goes to one. A number of another account reads as not found.',
    query: TrackingNumQuery,
    data: StatusRecordB,
    failure: failureBWith(QueryStatusMiss),
    errors: [
      ...requiredB('tracking_num', 'is repeated or longer than 64'),
      business(
        B.fail,
        'no parcel of the account has this number; data is `{tracking_number, remarks: "No Record(s)"}`',
      ),
    ],
    examples: [
      {
        name: 'found',
        summary: 'A parcel registered with its carrier',
        query: { tracking_num: SAMPLE.trackingNumber },
        response: okB(sampleRecordB),
      },
      {
        name: 'unknown',
        summary: 'A number the account does not have',
        query: { tracking_num: SAMPLE.unknownTrackingNumber },
        response: {
          code: 1,
          message: B.fail,
          data: { tracking_number: SAMPLE.unknownTrackingNumber, remarks: Remarks.noRecord },
        },
      },
    ],
  }),
  signedWithCommon({
    id: 'queryMultiStatus',
    label: 'B4',
    method: 'post',
    path: '/v1/openapi/order/query-multi-status',
    summary: 'Status of many parcels',
    description:
      'Found numbers go to `success`, the others to `errors` with `No Record(s)`; misses never change the code. An empty array answers two empty arrays.',
    body: QueryMultiStatusRequest,
    data: MultiStatusResult,
    errors: [business(B.somethingError, 'tracking_nums is missing or not an array of strings')],
    remarks: [{ remark: Remarks.noRecord, when: 'no parcel of the account has this number' }],
    examples: [
      {
        name: 'mixed',
        summary: 'One parcel found, one not',
        body: { tracking_nums: [SAMPLE.trackingNumber, SAMPLE.unknownTrackingNumber] },
        response: okB({
          success: [sampleRecordB],
          errors: [{ tracking_number: SAMPLE.unknownTrackingNumber, remarks: Remarks.noRecord }],
        }),
      },
      {
        name: 'notAnArray',
        summary: 'A string instead of an array',
        body: { tracking_nums: SAMPLE.trackingNumber },
        response: failB(B.somethingError),
      },
    ],
  }),
  signedWithCommon({
    id: 'getStations',
    label: 'B5',
    method: 'get',
    path: '/v1/openapi/station/get-stations',
    summary: 'Lockers and collection points near a postal code',
    description:
      'Stations within 5 km of the postal code’s location, nearest first, at most 20, `Distance` in metres to one decimal. An ' +
      'omitted or unknown postal code answers an empty list. The station data covers Singapore.',
    query: StationsQuery,
    data: z.array(Station),
    errors: [],
    examples: [
      {
        name: 'orchard',
        summary: 'Near 238858 (Orchard Road); the answer lists 20',
        query: { postcode: '238858' },
        response: okB([
          {
            Zipcode: '238858',
            Station_Name: 'Orchard Gateway Locker',
            Station_Address: '277 Orchard Road',
            Address_Detail: 'Level 1 lobby',
            Distance: 0,
            Station_Code: 'SGL0003',
          },
          {
            Zipcode: '238895',
            Station_Name: '313@somerset Parcel Locker',
            Station_Address: '313 Orchard Road',
            Address_Detail: 'Level B3 near Somerset MRT link',
            Distance: 126.8,
            Station_Code: 'SGL0044',
          },
        ]),
      },
      {
        name: 'unknown',
        summary: 'A postal code with no location',
        query: { postcode: '999999' },
        response: okB([]),
      },
    ],
  }),
  signedWithCommon({
    id: 'cancelOrders',
    label: 'B6',
    method: 'post',
    path: '/v1/openapi/order/cancel-orders',
    summary: 'Cancel orders of the LMX carrier',
    description:
      'Cancels 1 to 100 parcels routed to the LMX carrier (or its pickup variant LMX-PU), for accounts allowed to cancel. The ' +
      'carrier is asked first; a cancelled parcel records `CN_CN`. Each number is answered on its own, and the code stays 0 ' +
      'even when every number fails (see the remarks below). A number repeated in one request is answered for each ' +
      `occurrence; the repeat reads \`${Remarks.canceled}\`.`,
    body: CancelOrdersRequest,
    data: CancelResult,
    errors: [business(B.permissionDenied, 'the account may not cancel'), ...trackingNumsErrors(B.batchCancelMaximum)],
    remarks: [
      { remark: Remarks.noRecord, when: 'not a parcel of the account, or not one of the LMX carrier' },
      { remark: Remarks.canceled, when: 'cancelled before' },
      { remark: Remarks.notFoundInPartner, when: 'the carrier holds no number for it (never registered)' },
      { remark: Remarks.cancelFail, when: 'the carrier refused the batch, or could not be reached; nothing changed' },
      {
        remark: Remarks.onManifest,
        when: 'on an end-of-day manifest (create-manifest): the carrier takes it with the manifest',
      },
      { remark: '<carrier message>', when: 'the carrier refused this parcel, e.g. `Parcel already picked up`' },
    ],
    examples: [
      {
        name: 'cancelled',
        summary: 'One parcel cancelled, one unknown',
        body: { tracking_nums: [SAMPLE.trackingNumber, SAMPLE.unknownTrackingNumber] },
        response: okB({
          success: [SAMPLE.trackingNumber],
          errors: [{ tracking_number: SAMPLE.unknownTrackingNumber, remarks: Remarks.noRecord }],
        }),
      },
      { name: 'empty', summary: 'No numbers', body: { tracking_nums: [] }, response: failB(B.trackingNumsRequired) },
    ],
  }),
  signedWithCommon({
    id: 'erasePersonalData',
    method: 'post',
    path: '/v1/openapi/order/erase-personal-data',
    summary: 'Erase the personal data of orders',
    description:
      'Erases the personal data of 1 to 100 of the account’s parcels for good: the names, phones, addresses, e-mails, ' +
      'the delivery instruction, and what carriers wrote of who received them (docs/personal-data.md). The parcel ' +
      'stays: its status, history, tracking page and barcode work as before, but labels answer `' +
      B.personalDataErased +
      '`. Answered as cancel-orders is: each number on its own, the code 0 even when every number fails. A number ' +
      'erased before is erased again, and answered as erased.',
    body: ErasePersonalDataRequest,
    data: CancelResult,
    errors: [...trackingNumsErrors(B.batchEraseMaximum)],
    remarks: [{ remark: Remarks.noRecord, when: 'not a parcel of the account' }],
    examples: [
      {
        name: 'erased',
        summary: 'One parcel erased, one unknown',
        body: { tracking_nums: [SAMPLE.trackingNumber, SAMPLE.unknownTrackingNumber] },
        response: okB({
          success: [SAMPLE.trackingNumber],
          errors: [{ tracking_number: SAMPLE.unknownTrackingNumber, remarks: Remarks.noRecord }],
        }),
      },
      { name: 'empty', summary: 'No numbers', body: { tracking_nums: [] }, response: failB(B.trackingNumsRequired) },
    ],
  }),
  ...(
    [
      {
        id: 'getShippingLabel',
        label: 'B7',
        suffix: '',
        what: 'PDF',
        schema: PdfLabel,
        data: { base64: 'JVBERi0xLjcKJeLjz9MK' },
      },
      {
        id: 'getShippingLabelHtml',
        label: 'B8',
        suffix: '-html',
        what: 'HTML',
        schema: HtmlLabel,
        data: { html: '<!doctype html><html lang="en">…</html>' },
      },
      {
        id: 'getShippingLabelZpl',
        label: 'B9',
        suffix: '-zpl',
        what: 'ZPL',
        schema: ZplLabel,
        data: { zpl: '^XA^CI28…^XZ' },
      },
    ] as const
  ).map(({ id, label, suffix, what, schema, data }) =>
    signedWithCommon({
      id,
      label,
      method: 'get',
      path: `/v1/openapi/order-shipping-label/get-shipping-label${suffix}`,
      summary: `Shipping label (${what})`,
      description:
        `The parcel’s shipping label as ${what}. The size follows the service type: 100 x 150 mm for last-mile and pickup ` +
        'parcels, A6 for self-label ones, 4 x 6 in to the US. The three formats show the same data; every barcode decodes to the ' +
        'tracking number. No event is recorded.',
      query: TrackingNumQuery,
      data: schema,
      errors: [
        ...requiredB('tracking_num', 'is repeated or longer than 64'),
        business(B.orderNotFound, 'no parcel of the account has this number'),
        business(B.personalDataErased, 'the parcel’s personal data was erased (erase-personal-data, or retention)'),
        business('<renderer message>', 'the label could not be rendered'),
      ],
      examples: [
        {
          name: 'rendered',
          summary: `A ${what} label`,
          query: { tracking_num: SAMPLE.trackingNumber },
          response: okB(data),
        },
        {
          name: 'unknown',
          summary: 'A number the account does not have',
          query: { tracking_num: SAMPLE.unknownTrackingNumber },
          response: failB(B.orderNotFound),
        },
      ],
    }),
  ),
  signedWithCommon({
    id: 'getBarcode',
    label: 'B10',
    method: 'get',
    path: '/v1/openapi/order/get-barcode',
    summary: 'Platform number of your own reference',
    description:
      'The platform tracking number of the order created with this reference, matched exactly (case-sensitive).',
    query: CustomTrackingNumQuery,
    data: BarcodeResult,
    errors: [
      ...requiredB('custom_tracking_num', 'is repeated or longer than 64'),
      business(B.orderNotFound, 'the account has no order with this reference'),
    ],
    examples: [
      {
        name: 'found',
        summary: 'A reference of the account',
        query: { custom_tracking_num: SAMPLE.reference },
        response: okB({ barcode: SAMPLE.trackingNumber }),
      },
      {
        name: 'unknown',
        summary: 'A reference the account never used',
        query: { custom_tracking_num: 'NO-SUCH-REF' },
        response: failB(B.orderNotFound),
      },
    ],
  }),
  withCommon({
    id: 'receiveCarrierEvent',
    tag: 'Carrier callbacks',
    method: 'post',
    path: '/carrier-events/:carrierCode',
    summary: 'A carrier reports a tracking event',
    description:
      'Called by carriers, not clients. The event is matched to the parcel by the carrier’s own number, its code mapped to a ' +
      'status code (an unknown code is kept and shown as sent), and recorded once: a replay (same carrier, number, code and ' +
      'time) answers `recorded: false` and changes nothing. Nothing is recorded for any failure. Uses interface B’s envelope.',
    security: 'carrier',
    params: z.object({
      carrierCode: z.string().meta({ description: 'The carrier’s code in the reference data, e.g. LMX.' }),
    }),
    body: CarrierEventBody,
    success: successB(CarrierEventResult),
    errors: [
      {
        status: 404,
        code: 1,
        message: Callback.unknownCarrier,
        when: 'no carrier has this code, or it sends no events',
      },
      {
        status: 401,
        code: 1,
        message: B.authInvalid(Callback.signatureHeader),
        when: 'the signature is missing or is not the HMAC of the body',
      },
      { status: 400, code: 1, message: B.require('<field>'), when: 'a required field of the event is missing' },
      {
        status: 400,
        code: 1,
        message: B.invalid('<field>'),
        when: 'a field of the event is malformed (event_time included)',
      },
      { status: 404, code: 1, message: Remarks.noRecord, when: 'no parcel has this partner number' },
    ],
    examples: [
      {
        name: 'pickedUp',
        summary: 'The carrier picked the parcel up',
        params: { carrierCode: 'LMX' },
        body: {
          partner_tracking_no: SAMPLE.partnerTrackingNo,
          event_code: 'PICKED_UP',
          event_time: '2026-11-23T09:30:00+08:00',
          location: 'Singapore',
          remarks: '',
          receive_by: '',
          pod: [],
        },
        response: okB({ recorded: true }),
      },
    ],
  }),
  {
    id: 'alive',
    tag: 'Service',
    method: 'get',
    path: '/healthz',
    summary: 'Alive',
    description: 'Answers as long as the process runs. Every service process serves it.',
    security: 'none',
    success: Alive,
    errors: [],
    examples: [{ name: 'alive', summary: 'Alive', response: { status: 'ok' } }],
  },
  {
    id: 'ready',
    tag: 'Service',
    method: 'get',
    path: '/readyz',
    summary: 'Ready',
    description:
      'Ready when the process’s bus and stores answer; 503 `{"status":"not ready"}` otherwise. Every service process serves it.',
    security: 'none',
    success: Ready,
    failure: NotReady,
    errors: [{ status: 503, code: 1, message: 'not ready', when: 'the bus or a store does not answer' }],
    examples: [{ name: 'ready', summary: 'Ready', response: { status: 'ready' } }],
  },
  {
    id: 'metrics',
    tag: 'Service',
    method: 'get',
    path: '/metrics',
    summary: 'Metrics (Prometheus)',
    description:
      'The process’s metrics in the Prometheus text format (version 0.0.4), collected when asked: request durations by route, ' +
      'bus request latency, and the process’s CPU, memory and event loop; where the process holds the event store (the ' +
      'embedded service) also append latency, commit-group sizes, subscription lag and the carrier-registration backlog. ' +
      'Every service process serves it, the order, tracking and label processes on their health port. The metrics are ' +
      'listed in packages/telemetry/README.md.',
    security: 'none',
    success: z.string(),
    produces: ['text/plain'],
    errors: [],
    examples: [
      {
        name: 'scrape',
        summary: 'The first lines of a scrape',
        response:
          '# HELP parcel_http_request_duration_seconds HTTP requests of the gateway, from arrival to the last byte of the answer, by route template, method and status class.\n' +
          '# TYPE parcel_http_request_duration_seconds histogram\n' +
          'parcel_http_request_duration_seconds_bucket{le="0.005",route="/v1/openapi/order/create-order",method="POST",status_class="2xx"} 1\n…',
      },
    ],
  },
  {
    id: 'openApiDocument',
    tag: 'Service',
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 description of the whole HTTP surface, generated from the schemas that validate requests and shape answers.',
    security: 'none',
    success: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }),
    errors: [],
    examples: [{ name: 'document', summary: 'This document', response: { openapi: '3.1.0' } }],
  },
  {
    id: 'apiReference',
    tag: 'Service',
    method: 'get',
    path: '/docs',
    summary: 'The API reference page',
    description:
      'This document rendered as a page, served with its scripts and styles from the gateway itself: it works offline. `/docs/` redirects here (301).',
    security: 'none',
    success: z.string(),
    produces: ['text/html'],
    errors: [],
    examples: [{ name: 'page', summary: 'The page', response: '<!doctype html>…' }],
  },
  {
    id: 'apiReferenceAsset',
    tag: 'Service',
    method: 'get',
    path: '/docs/:asset',
    summary: 'A file of the reference page',
    description:
      'Swagger UI’s script, style and icon, and the page’s own start-up script. Any other name answers 404 `Api not found`.',
    security: 'none',
    params: z.object({
      asset: z.string().meta({ description: 'swagger-ui.css, swagger-ui-bundle.js, init.js or favicon-32x32.png.' }),
    }),
    success: z.string(),
    produces: ['text/css', 'text/javascript', 'image/png'],
    errors: [{ status: 404, code: 1, message: B.apiNotFound, when: 'no such file' }],
    examples: [
      {
        name: 'start',
        summary: 'The page’s start-up script',
        params: { asset: 'init.js' },
        response: 'window.addEventListener(…',
      },
      {
        name: 'unknown',
        summary: 'A file the page does not have',
        params: { asset: 'index.html' },
        response: failB(B.apiNotFound),
        status: 404,
      },
    ],
  },
  ...trackingOperations(SAMPLE),
  ...IMPORT_OPERATIONS.map(withCommon),
  ...labelOperations(SAMPLE).map(withCommon),
  ...WEBHOOK_OPERATIONS.map(withCommon),
  ...WEBHOOK_LOG_OPERATIONS.map(withCommon),
  ...MANIFEST_OPERATIONS.map(withCommon),
];

export const operation = (id: string): Operation => {
  const found = OPERATIONS.find((op) => op.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
