/**
 * End-of-day manifests of interface B, under `/v1/openapi/manifest/`: GET for reads, POST for
 * create, signed, in the B envelope. operations.ts adds the answers every signed operation shares.
 * See docs/bulk.md, "End-of-day manifests".
 */
import { z } from 'zod';
import { B } from '../messages.ts';
import {
  CreateManifestRequest,
  ListManifestsQuery,
  Manifest,
  MANIFEST_LIST_DEFAULT,
  MANIFEST_LIST_MAX,
  MANIFEST_MAX_PARCELS,
  ManifestIdQuery,
  ManifestResult,
  ManifestSummary,
} from '../manifests.ts';
import { business, failB, okB, requiredB, signedB } from './operation.ts';
import type { Operation } from './operation.ts';

export const MANIFEST_SAMPLE = {
  manifestId: 'MF7D2K9Q4W1X8ZP3N6',
  unknownManifestId: 'MF0000000000000000',
  time: '2026-11-22T18:05:09+08:00',
  trackingNumber: 'PX7K2P9S4W8Y1Q3T55',
} as const;

const summary = {
  manifest_id: MANIFEST_SAMPLE.manifestId,
  carrier: 'LMX',
  created_at: MANIFEST_SAMPLE.time,
  count: 1,
  tracking_numbers: [MANIFEST_SAMPLE.trackingNumber],
};
const documents = {
  pdf: 'JVBERi0xLjMK…',
  csv:
    'tracking_number,custom_tracking_num,partner_tracking_no,service_type,destination_country,weight,weight_unit,pieces\r\n' +
    `${MANIFEST_SAMPLE.trackingNumber},ORDER-1001,LMX7Q2K9D4M1X8ZP,LMD,SG,1.2,kg,2\r\n`,
};
const idErrors = [
  ...requiredB('manifest_id', 'is longer than 64'),
  business(Manifest.notFound, 'the account has no manifest of this id (another account’s id reads the same)'),
];

export const MANIFEST_OPERATIONS: readonly Operation[] = [
  signedB({
    id: 'createManifest',
    method: 'post',
    path: '/v1/openapi/manifest/create-manifest',
    summary: 'Close the day’s parcels of a carrier on a manifest',
    description:
      'Puts every parcel of the account routed to the carrier that the carrier has accepted (it gave its own number) and ' +
      'that is neither cancelled nor on a manifest yet on a new manifest, oldest first, at most ' +
      `${MANIFEST_MAX_PARCELS} (the rest wait for the next one). Each parcel records the status \`MF_MF\` and can no ` +
      'longer be cancelled. The answer holds the manifest’s PDF (Base64) and CSV; get-manifest answers the same again. ' +
      'Two concurrent calls never put one parcel on two manifests. With nothing to close it answers a failure and ' +
      'records no manifest. A manifest holds nothing personal: numbers, references, service, destination country, ' +
      'weight and pieces.',
    body: CreateManifestRequest,
    data: ManifestResult,
    errors: [
      ...requiredB(
        'carrier',
        'is not a string, or not a carrier that registers parcels (manifests are made for `LMX` and `LMX-PU`)',
      ),
      business(
        Manifest.nothingToClose,
        'the account has no parcel of this carrier that the carrier accepted and that is not cancelled or on a manifest',
      ),
    ],
    examples: [
      {
        name: 'created',
        summary: 'One parcel closed',
        body: { carrier: 'LMX' },
        response: okB({ ...summary, ...documents }),
      },
      {
        name: 'unknownCarrier',
        summary: 'A carrier that takes no manifests',
        body: { carrier: 'USX' },
        response: failB(B.invalid('carrier')),
      },
      {
        name: 'noCarrier',
        summary: 'No carrier',
        body: {},
        response: failB(B.require('carrier')),
      },
    ],
  }),
  signedB({
    id: 'getManifest',
    method: 'get',
    path: '/v1/openapi/manifest/get-manifest',
    summary: 'One manifest, with its documents',
    description: 'The manifest as create-manifest answered it, its PDF and CSV made again.',
    query: ManifestIdQuery,
    data: ManifestResult,
    errors: idErrors,
    examples: [
      {
        name: 'found',
        summary: 'The manifest',
        query: { manifest_id: MANIFEST_SAMPLE.manifestId },
        response: okB({ ...summary, ...documents }),
      },
      {
        name: 'unknown',
        summary: 'An id the account does not have',
        query: { manifest_id: MANIFEST_SAMPLE.unknownManifestId },
        response: failB(Manifest.notFound),
      },
    ],
  }),
  signedB({
    id: 'listManifests',
    method: 'get',
    path: '/v1/openapi/manifest/list-manifests',
    summary: 'The account’s manifests, newest first',
    description:
      `The account’s manifests, newest first, without their documents: at most \`limit\` (${MANIFEST_LIST_DEFAULT} when ` +
      `omitted, ${MANIFEST_LIST_MAX} at most). The next page: \`before\` = the last id of this one; an empty list is the end.`,
    query: ListManifestsQuery,
    data: z.array(ManifestSummary),
    errors: [
      business(B.invalid('carrier'), 'carrier is longer than 16'),
      business(B.invalid('limit'), `limit is not a whole number from 1 to ${MANIFEST_LIST_MAX}`),
      business(B.invalid('before'), 'before is blank or longer than 64'),
    ],
    examples: [
      { name: 'one', summary: 'One manifest', query: { carrier: 'LMX', limit: '10' }, response: okB([summary]) },
      { name: 'badLimit', summary: 'A limit too large', query: { limit: '1000' }, response: failB(B.invalid('limit')) },
    ],
  }),
];
