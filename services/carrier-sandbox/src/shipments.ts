import { randomInt } from 'node:crypto';

/** One registered shipment as the sandbox carrier holds it. */
export interface SandboxShipment {
  trackingNumber: string;
  partnerTrackingNo: string;
  carrier: 'LMX' | 'LMX-PU';
  recipientCountry: string;
  postalCode: string;
  recipientName: string;
  instruction: string;
  registeredAt: Date;
  cancelRejects: boolean;
  pickedUp: boolean;
  cancelled: boolean;
}

export type Registration = Omit<
  SandboxShipment,
  'partnerTrackingNo' | 'registeredAt' | 'cancelRejects' | 'pickedUp' | 'cancelled'
>;

export type CancelAnswer =
  | { rejected: true }
  | { rejected: false; results: { partner_tracking_no: string; cancelled: boolean; message: string }[] };

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const partnerNumber = () => 'LMX' + Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export function createShipmentBook(now: () => Date) {
  const byPartnerNo = new Map<string, SandboxShipment>();
  const byTrackingNumber = new Map<string, SandboxShipment>();

  function register(r: Registration): SandboxShipment | null {
    const known = byTrackingNumber.get(r.trackingNumber);
    if (known) return known;
    if (r.instruction.includes('[sandbox:no-partner]')) return null;
    let partnerTrackingNo = partnerNumber();
    while (byPartnerNo.has(partnerTrackingNo)) partnerTrackingNo = partnerNumber();
    const shipment: SandboxShipment = {
      ...r,
      partnerTrackingNo,
      registeredAt: now(),
      cancelRejects: r.instruction.includes('[sandbox:cancel-reject]'),
      pickedUp: r.instruction.includes('[sandbox:picked-up]'),
      cancelled: false,
    };
    byPartnerNo.set(partnerTrackingNo, shipment);
    byTrackingNumber.set(r.trackingNumber, shipment);
    return shipment;
  }

  // The batch is all or nothing when one parcel rejects it, so check before cancelling any.
  function cancel(partnerNos: string[]): CancelAnswer {
    if (partnerNos.some((no) => byPartnerNo.get(no)?.cancelRejects)) return { rejected: true };
    const results = partnerNos.map((no) => {
      const s = byPartnerNo.get(no);
      if (!s) return { partner_tracking_no: no, cancelled: false, message: 'Shipment not found' };
      if (s.pickedUp) return { partner_tracking_no: no, cancelled: false, message: 'Parcel already picked up' };
      s.cancelled = true;
      return { partner_tracking_no: no, cancelled: true, message: 'Cancelled' };
    });
    return { rejected: false, results };
  }

  return { register, cancel, shipments: byPartnerNo as ReadonlyMap<string, Readonly<SandboxShipment>> };
}
