import type { CarrierDef } from '@parcel-logistics/reference-data';

/** Our status code for the carrier's event code; an unknown code is kept as the carrier sent it. */
export function mapCarrierCode(carrier: CarrierDef, carrierCode: string): string {
  const codes = carrier.eventCodes;
  // hasOwn: a code such as "constructor" must not find Object.prototype.
  return codes && Object.hasOwn(codes, carrierCode) ? codes[carrierCode]! : carrierCode;
}
