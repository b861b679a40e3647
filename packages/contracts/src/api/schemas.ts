/**
 * The shapes the gateway answers with, as zod schemas: the route code builds its answers with
 * these types, and the OpenAPI document is generated from the same schemas. Objects are strict,
 * so a field the server sends but the document does not name fails the contract tests.
 */
import { z } from 'zod';
import { A, B } from '../messages.ts';

/** Components named here whose schema the document's builder supplies (from the domain and the validation rules). */
export const SUPPLIED = { trackingNumber: 'TrackingNumber', order: 'Order', statusCode: 'StatusCode' } as const;

export const TrackingNumber = z.string().meta({ id: SUPPLIED.trackingNumber });
export const StatusCode = z.string().meta({ id: SUPPLIED.statusCode });

/** Singapore time, seconds precision, explicit offset. */
export const SgtTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/)
  .meta({
    id: 'SgtTime',
    description: 'Singapore time (UTC+08:00), ISO 8601 to the second, with its offset.',
    examples: ['2026-11-22T14:05:09+08:00'],
  });

/** Empty until the parcel has a publishable status. */
const SgtTimeOrEmpty = z.union([SgtTime, z.literal('')]);

export const LockerStationB = z
  .strictObject({
    station_code: z.string(),
    station_name: z.string(),
    station_address: z.string(),
    address_detail: z.string(),
    zipcode: z.string(),
    distance: z
      .number()
      .meta({ description: 'Metres from the order postal code (locker_type B), or as sent (locker_type A).' }),
  })
  .meta({
    id: 'LockerStationB',
    description: 'The locker of a parcel sent to one: as sent (locker_type A) or assigned (locker_type B).',
  });

export const ActivityB = z
  .strictObject({
    status_date_time: SgtTime,
    status_code: StatusCode,
    status_desc: z.string().meta({ description: 'English description; branch on status_code, never on this text.' }),
    remarks: z.string(),
    receive_by: z.string().meta({ description: 'Who signed for a delivery; empty for every other event.' }),
    pod: z.array(z.string()).meta({ description: 'Proof-of-delivery references; empty when none.' }),
    location: z.string().meta({
      description:
        'Where the event happened: the carrier location, or the sender country for the platform’s own events.',
    }),
  })
  .meta({ id: 'ActivityB' });

export const StatusRecordB = z
  .strictObject({
    tracking_number: TrackingNumber,
    last_status: z.union([StatusCode, z.literal('')]),
    last_status_date_time: SgtTimeOrEmpty,
    activities: z.array(ActivityB).meta({ description: 'Client-visible events, most recent first.' }),
    partner_tracking_no: z
      .string()
      .meta({ description: 'The carrier’s own number; empty until the carrier registered the parcel.' }),
    partner_name: z.string().meta({ description: 'The carrier’s name; empty until registered.' }),
    locker_station: LockerStationB.optional(),
  })
  .meta({ id: 'StatusRecordB' });

export const ActivityA = z
  .strictObject({
    StatusDateTime: SgtTime,
    StatusCode: StatusCode,
    StatusDesc: z.string(),
    Remarks: z.string(),
    ReceiveBy: z.literal('').meta({ description: 'Reserved: always empty on interface A.' }),
  })
  .meta({ id: 'ActivityA' });

export const StatusRecordA = z
  .strictObject({
    TrackingNumber: TrackingNumber,
    LastStatus: z.union([StatusCode, z.literal('')]),
    LastStatusDateTime: SgtTimeOrEmpty,
    Activities: z
      .array(ActivityA)
      .meta({ description: 'Client-visible events, most recent first; internal records never appear.' }),
  })
  .meta({ id: 'StatusRecordA' });

const Miss = (field: string) => z.strictObject({ [field]: z.string(), remarks: z.string() });

export const StatusLookupResult = z
  .strictObject({
    Success: z.array(StatusRecordA),
    Errors: z.array(z.strictObject({ TrackingNumber: z.string(), Remarks: z.string() })),
  })
  .meta({
    id: 'StatusLookupResult',
    description: 'Every submitted number once, in submission order: found ones in Success, the others in Errors.',
  });

export const TokenResult = z
  .strictObject({
    AccessToken: z.string(),
    TokenType: z.literal('Bearer'),
    ExpiresIn: z.int().min(1).meta({ description: 'Seconds until the token expires.' }),
    ExpiresAt: SgtTime,
  })
  .meta({ id: 'TokenResult' });

export const TrackingNumberResult = z
  .strictObject({ TrackingNumber: TrackingNumber })
  .meta({ id: 'TrackingNumberResult' });
export const CreateLabelResult = z
  .strictObject({ Base64: z.base64().meta({ description: 'The CN23 declaration as a PDF.' }) })
  .meta({ id: 'CreateLabelResult' });

export const CreateOrderResult = z
  .strictObject({
    custom_tracking_num: z.string(),
    wmg_tracking_num: TrackingNumber,
    date_time: SgtTime,
    status: z.literal('').meta({ description: 'Empty for an order created at once.' }),
    error: z.array(z.never()).max(0),
  })
  .meta({ id: 'CreateOrderResult' });

export const BatchEntry = z
  .strictObject({
    custom_tracking_num: z.string(),
    date_time: SgtTime,
    status: z.enum(['Accepted', 'Rejected']),
    error: z
      .array(z.strictObject({ reason: z.string() }))
      .meta({ description: 'Empty when accepted; why it was rejected (a create-order message) otherwise.' }),
  })
  .meta({ id: 'BatchEntry' });

export const CreateOrdersResult = z
  .strictObject({ success: z.array(BatchEntry), errors: z.array(BatchEntry) })
  .meta({ id: 'CreateOrdersResult' });

export const QueryStatusMiss = Miss('tracking_number').meta({ id: 'QueryStatusMiss' });

export const MultiStatusResult = z
  .strictObject({ success: z.array(StatusRecordB), errors: z.array(Miss('tracking_number')) })
  .meta({ id: 'MultiStatusResult' });

export const Station = z
  .strictObject({
    Zipcode: z.string(),
    Station_Name: z.string(),
    Station_Address: z.string(),
    Address_Detail: z.string(),
    Distance: z.number().min(0).meta({ description: 'Metres from the queried postal code, to one decimal.' }),
    Station_Code: z.string().meta({ description: 'Send it as locker_station.station_code with locker_type A.' }),
  })
  .meta({ id: 'Station' });

export const CancelResult = z
  .strictObject({
    success: z.array(TrackingNumber).meta({ description: 'The numbers cancelled by this request.' }),
    errors: z.array(Miss('tracking_number')),
  })
  .meta({ id: 'CancelResult' });

export const PdfLabel = z
  .strictObject({ base64: z.base64().meta({ description: 'The label as a PDF.' }) })
  .meta({ id: 'PdfLabel' });
export const HtmlLabel = z
  .strictObject({ html: z.string().meta({ description: 'A complete HTML document.' }) })
  .meta({ id: 'HtmlLabel' });
export const ZplLabel = z
  .strictObject({ zpl: z.string().meta({ description: 'A complete ZPL II label (^XA … ^XZ).' }) })
  .meta({ id: 'ZplLabel' });
export const BarcodeResult = z.strictObject({ barcode: TrackingNumber }).meta({ id: 'BarcodeResult' });
export const CarrierEventResult = z
  .strictObject({
    recorded: z
      .boolean()
      .meta({ description: 'false: the same event was recorded before (a replay), and nothing changed.' }),
  })
  .meta({ id: 'CarrierEventResult' });

export const Alive = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Alive' });
export const Ready = z.strictObject({ status: z.literal('ready') }).meta({ id: 'Ready' });
export const NotReady = z.strictObject({ status: z.literal('not ready') }).meta({ id: 'NotReady' });

/** Success envelopes: code 0 with the interface's success text. */
export const successA = <T extends z.ZodType>(data: T) =>
  z.strictObject({ Code: z.literal(0), Message: z.literal(A.success), Data: data });
export const successB = <T extends z.ZodType>(data: T) =>
  z.strictObject({ code: z.literal(0), message: z.literal(B.success), data });

/** Failure envelopes: a non-zero code, the message, and `[]` (or the documented object) as data. */
const noData = z.array(z.never()).max(0).meta({ description: 'Always an empty array on failure.' });
export const FailureA = z
  .strictObject({ Code: z.union([z.literal(1), z.literal(1003)]), Message: z.string(), Data: noData })
  .meta({ id: 'FailureA', description: 'Interface A failure: Code 1 (1003 for token errors) and the message.' });
export const FailureB = z
  .strictObject({ code: z.literal(1), message: z.string(), data: noData })
  .meta({ id: 'FailureB', description: 'Interface B failure (the carrier callback too): code 1 and the message.' });
/** Interface B's failure with a data object instead of `[]` (query-status's miss). */
export const failureBWith = <T extends z.ZodType>(data: T) =>
  z.strictObject({ code: z.literal(1), message: z.string(), data });

export type StatusRecordB = z.output<typeof StatusRecordB>;
export type StatusRecordA = z.output<typeof StatusRecordA>;
export type StatusLookupResult = z.output<typeof StatusLookupResult>;
export type TokenResult = z.output<typeof TokenResult>;
export type CreateOrderResult = z.output<typeof CreateOrderResult>;
export type BatchEntry = z.output<typeof BatchEntry>;
export type CreateOrdersResult = z.output<typeof CreateOrdersResult>;
export type MultiStatusResult = z.output<typeof MultiStatusResult>;
export type Station = z.output<typeof Station>;
export type CancelResult = z.output<typeof CancelResult>;
