import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { CarrierClient } from '../port.ts';

/** The LMX client serves LMX and its variants (LMX-PU): the carriers that take registrations and cancellations. */
export const lmxCarrierClients = (ref: ReferenceData, lmx: CarrierClient): ReadonlyMap<string, CarrierClient> =>
  new Map([...ref.carriers.keys()].filter((code) => code.startsWith('LMX')).map((code) => [code, lmx]));
