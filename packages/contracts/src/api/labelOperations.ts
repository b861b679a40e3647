/**
 * Many labels in one document (interface B): a PDF or ZPL document of up to 100 parcels' shipping
 * labels, each labelled parcel recording LB_GN. operations.ts adds the answers every signed POST
 * shares. See docs/bulk.md, "Many labels in one document".
 */
import { z } from 'zod';
import { B } from '../messages.ts';
import { GetShippingLabelsRequest } from '../requests.ts';
import type { Operation } from './operation.ts';
import { TrackingNumber } from './schemas.ts';
import { business, failB, okB, signedB, trackingNumsErrors } from './operation.ts';

export const LabelsResult = z
  .strictObject({
    base64: z
      .base64()
      .optional()
      .meta({ description: 'The PDF (format pdf); absent when no number could be labelled.' }),
    zpl: z
      .string()
      .optional()
      .meta({ description: 'The ZPL, one `^XA … ^XZ` a label (format zpl); absent when no number could be labelled.' }),
    labels: z
      .array(TrackingNumber)
      .meta({ description: 'The numbers labelled, in the order of the document (and of the request).' }),
    errors: z
      .array(z.strictObject({ tracking_number: z.string(), remarks: z.string() }))
      .meta({ description: 'The numbers not labelled, each with its remark.' }),
  })
  .meta({ id: 'LabelsResult' });

export const labelOperations = (sample: { trackingNumber: string; unknownTrackingNumber: string }): Operation[] => [
  signedB({
    id: 'getShippingLabels',
    method: 'post',
    path: '/v1/openapi/order-shipping-label/get-shipping-labels',
    summary: 'Many shipping labels in one document',
    description:
      'The shipping labels of 1 to 100 of the account’s parcels in one document, in the order asked: a Base64 PDF with each label on ' +
      'a 4 x 6 in page of its own (`layout` `label`, the default) or four labels on each A4 page (`a4-4up`, each scaled to its ' +
      'quarter), or ZPL with one `^XA … ^XZ` a label. Each labelled parcel records `LB_GN` (shipping label generated), as ' +
      'create-label does; the document is rendered once, before any is recorded, and a failed render records nothing. A number ' +
      'asked twice is labelled once. Each number that cannot be labelled is answered in `errors` with its remark, and the code ' +
      'stays 0 even when none can be labelled (then `labels` is empty and the document field absent).',
    body: GetShippingLabelsRequest,
    data: LabelsResult,
    errors: [
      ...trackingNumsErrors(B.batchLabelMaximum),
      business(B.invalid('format'), 'format is neither pdf nor zpl'),
      business(B.invalid('layout'), 'layout is neither label nor a4-4up'),
      business(B.layoutNeedsPdf, 'layout a4-4up with format zpl'),
      business('<renderer message>', 'the document could not be rendered; no LB_GN was recorded'),
    ],
    remarks: [
      { remark: B.orderNotFound, when: 'not a parcel of the account (another account’s number reads the same)' },
      {
        remark: B.personalDataErased,
        when: 'the parcel’s personal data was erased (erase-personal-data, or retention)',
      },
      { remark: B.cannotUndergoOperation, when: 'the parcel ships under a self-label service type' },
    ],
    examples: [
      {
        name: 'labelled',
        summary: 'One parcel labelled as a PDF, one unknown',
        body: { tracking_nums: [sample.trackingNumber, sample.unknownTrackingNumber], format: 'pdf', layout: 'label' },
        response: okB({
          base64: 'JVBERi0xLjcKJeLjz9MK',
          labels: [sample.trackingNumber],
          errors: [{ tracking_number: sample.unknownTrackingNumber, remarks: B.orderNotFound }],
        }),
      },
      {
        name: 'zplOnA4',
        summary: 'A4 sheets asked of ZPL',
        body: { tracking_nums: [sample.trackingNumber], format: 'zpl', layout: 'a4-4up' },
        response: failB(B.layoutNeedsPdf),
      },
      {
        name: 'unknownOnly',
        summary: 'No number can be labelled',
        body: { tracking_nums: [sample.unknownTrackingNumber] },
        response: okB({
          labels: [],
          errors: [{ tracking_number: sample.unknownTrackingNumber, remarks: B.orderNotFound }],
        }),
      },
    ],
  }),
];
