/** The parcel decider: decide(command, state) -> events, evolve(state, event) -> state. No I/O, no clock. */
import { labelRefusal, ownedBy } from './labelRules.ts';
import type { LabelRequest } from './labelRules.ts';
import type { CarrierEventRecorded, ParcelEvent, ParcelRegistration } from './events.ts';
import { splitCarrierEventPersonal } from './personal.ts';
import type { Decider } from '../decider.ts';

export type ParcelCommand =
  | {
      type: 'RegisterParcel';
      data: ParcelRegistration & { trackingNumber: string; commandId?: string; now: Date };
    }
  | {
      type: 'GenerateLabel';
      data: LabelRequest & { labelType: string; direction: 'horizontal' | 'vertical'; now: Date };
    }
  | { type: 'CancelParcel'; data: { clientId: string; now: Date } }
  /** Puts the parcel on a manifest of its carrier: once, and only a parcel the carrier accepted and not cancelled. */
  | { type: 'AddToManifest'; data: { clientId: string; carrier: string; manifestId: string; now: Date } }
  /** `clientId`: on the client's request (another account's parcel reads as missing); absent for the retention policy. */
  | { type: 'ErasePersonalData'; data: { clientId?: string; reason: 'request' | 'retention'; now: Date } }
  | { type: 'RecordCarrierRegistration'; data: { partnerTrackingNo: string; partnerName: string; now: Date } }
  | { type: 'RecordCarrierRegistrationFailure'; data: { reason: string; now: Date } }
  | {
      type: 'RecordCarrierEvent';
      /** The carrier's event as recorded, less what the stream already says and when it is recorded. */
      data: Omit<CarrierEventRecorded['data'], 'trackingNumber' | 'carrier' | 'recordedAt'> & { now: Date };
    };

export type ParcelState =
  | { status: 'empty' }
  | {
      status: 'active' | 'cancelled';
      trackingNumber: string;
      clientId: string;
      carrier: string;
      serviceType: string;
      /** sender and recipient countries */
      origin: string;
      destination: string;
      partnerTrackingNo: string | null;
      registrationAttempts: number;
      /** carrier|code|time of every carrier event recorded: a replay is recorded once. */
      carrierEventKeys: ReadonlySet<string>;
      /** Its personal values were erased: no label, and carrier events keep nothing personal. */
      personalDataErased: boolean;
      /** The manifest it is on (null: none yet). */
      manifestId: string | null;
    };

export type ParcelErrorCode =
  | 'ParcelAlreadyRegistered'
  | 'ParcelNotFound'
  | 'SelfLabelNotAllowed'
  | 'ParcelAlreadyCancelled'
  | 'AlreadyRegisteredWithCarrier'
  | 'CarrierCannotCancel'
  | 'NotRegisteredWithCarrier'
  | 'PersonalDataErased'
  | 'ParcelManifested';

export class ParcelError extends Error {
  readonly code: ParcelErrorCode;
  constructor(code: ParcelErrorCode) {
    super(code);
    this.name = 'ParcelError';
    this.code = code;
  }
}

export const initialState = (): ParcelState => ({ status: 'empty' });

/** Another account's parcel reads as a missing one; a parcel is cancelled once. */
function cancelParcelRefusal(state: ParcelState, clientId: string): ParcelErrorCode | undefined {
  if (state.status === 'empty' || !ownedBy(state, clientId)) return 'ParcelNotFound';
  if (state.status === 'cancelled') return 'ParcelAlreadyCancelled';
  // Its carrier takes it with the manifest: too late to cancel.
  if (state.manifestId !== null) return 'ParcelManifested';
  return undefined;
}

/**
 * Why a parcel may not go on a manifest of `carrier` for `clientId`: another account's parcel or
 * another carrier's reads as missing; a cancelled one, one the carrier has not accepted yet, and
 * one on another manifest are refused. Undefined: it may (or is on this very manifest already).
 */
function manifestRefusal(
  state: ParcelState,
  request: { clientId: string; carrier: string; manifestId: string },
): ParcelErrorCode | undefined {
  if (state.status === 'empty' || !ownedBy(state, request.clientId) || state.carrier !== request.carrier)
    return 'ParcelNotFound';
  if (state.manifestId === request.manifestId) return undefined;
  if (state.manifestId !== null) return 'ParcelManifested';
  if (state.status === 'cancelled') return 'ParcelAlreadyCancelled';
  if (state.partnerTrackingNo === null) return 'NotRegisteredWithCarrier';
  return undefined;
}

/** What a cancel-orders request asks of a parcel before its carrier is asked to cancel it. */
export interface CancelRequest {
  clientId: string;
  /** Carriers that take cancellations (and that the service can reach). */
  cancellableCarriers: readonly string[];
}

/**
 * What cancel-orders may ask of a parcel's carrier: the carrier's number to cancel, or why it may
 * not. The carrier cancels first; `CancelParcel` then records it under the same ownership and
 * once-only rules.
 */
export function cancellation(
  state: ParcelState,
  request: CancelRequest,
): { refusal: ParcelErrorCode } | { refusal?: undefined; carrier: string; partnerTrackingNo: string } {
  if (state.status === 'empty' || !ownedBy(state, request.clientId)) return { refusal: 'ParcelNotFound' };
  if (!request.cancellableCarriers.includes(state.carrier)) return { refusal: 'CarrierCannotCancel' };
  const refusal = cancelParcelRefusal(state, request.clientId);
  if (refusal) return { refusal };
  if (state.partnerTrackingNo === null) return { refusal: 'NotRegisteredWithCarrier' };
  return { carrier: state.carrier, partnerTrackingNo: state.partnerTrackingNo };
}

const carrierEventKey = (carrier: string, code: string, time: Date) => `${carrier}|${code}|${time.toISOString()}`;

export function decide(command: ParcelCommand, state: ParcelState): ParcelEvent[] {
  if (command.type === 'RegisterParcel') {
    if (state.status !== 'empty') throw new ParcelError('ParcelAlreadyRegistered');
    const { now, ...data } = command.data;
    return [{ type: 'ParcelRegistered', data: { ...data, registeredAt: now } }];
  }
  if (state.status === 'empty') throw new ParcelError('ParcelNotFound');
  const { trackingNumber, carrier } = state;
  switch (command.type) {
    case 'GenerateLabel': {
      const { labelType, direction, now } = command.data;
      const refusal = labelRefusal(state, command.data);
      if (refusal) throw new ParcelError(refusal);
      if (state.personalDataErased) throw new ParcelError('PersonalDataErased');
      return [{ type: 'LabelGenerated', data: { trackingNumber, labelType, direction, generatedAt: now } }];
    }
    case 'CancelParcel': {
      const refusal = cancelParcelRefusal(state, command.data.clientId);
      if (refusal) throw new ParcelError(refusal);
      return [{ type: 'ParcelCancelled', data: { trackingNumber, cancelledAt: command.data.now } }];
    }
    case 'AddToManifest': {
      const refusal = manifestRefusal(state, command.data);
      if (refusal) throw new ParcelError(refusal);
      if (state.manifestId === command.data.manifestId) return [];
      const { manifestId, now } = command.data;
      return [{ type: 'ParcelManifested', data: { trackingNumber, carrier, manifestId, manifestedAt: now } }];
    }
    case 'ErasePersonalData': {
      const { clientId, reason, now } = command.data;
      if (clientId !== undefined && !ownedBy(state, clientId)) throw new ParcelError('ParcelNotFound');
      if (state.personalDataErased) return [];
      return [{ type: 'PersonalDataErased', data: { trackingNumber, reason, erasedAt: now } }];
    }
    case 'RecordCarrierRegistration': {
      if (state.partnerTrackingNo !== null) throw new ParcelError('AlreadyRegisteredWithCarrier');
      const { partnerTrackingNo, partnerName, now } = command.data;
      return [
        {
          type: 'CarrierRegistered',
          data: { trackingNumber, carrier, partnerTrackingNo, partnerName, registeredAt: now },
        },
      ];
    }
    case 'RecordCarrierRegistrationFailure': {
      const { reason, now } = command.data;
      const attempt = state.registrationAttempts + 1;
      return [{ type: 'CarrierRegistrationFailed', data: { trackingNumber, carrier, attempt, reason, failedAt: now } }];
    }
    case 'RecordCarrierEvent': {
      const { now, ...event } = command.data;
      if (state.carrierEventKeys.has(carrierEventKey(carrier, event.carrierCode, event.eventTime))) return [];
      const kept = state.personalDataErased ? splitCarrierEventPersonal(event).clear : event;
      return [{ type: 'CarrierEventRecorded', data: { trackingNumber, carrier, ...kept, recordedAt: now } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolve(state: ParcelState, event: ParcelEvent): ParcelState {
  if (event.type === 'ParcelRegistered') {
    const { trackingNumber, clientId, carrier, serviceType, order } = event.data;
    return {
      status: 'active',
      trackingNumber,
      clientId,
      carrier,
      serviceType,
      origin: order.sender.country,
      destination: order.recipient.country,
      partnerTrackingNo: null,
      registrationAttempts: 0,
      carrierEventKeys: new Set(),
      personalDataErased: false,
      manifestId: null,
    };
  }
  if (state.status === 'empty') return state;
  switch (event.type) {
    case 'LabelGenerated':
      return state;
    case 'ParcelCancelled':
      return { ...state, status: 'cancelled' };
    case 'ParcelManifested':
      return { ...state, manifestId: event.data.manifestId };
    case 'CarrierRegistered':
      return { ...state, partnerTrackingNo: event.data.partnerTrackingNo };
    case 'CarrierRegistrationFailed':
      return { ...state, registrationAttempts: event.data.attempt };
    case 'PersonalDataErased':
      return { ...state, personalDataErased: true };
    case 'CarrierEventRecorded': {
      const { carrier, carrierCode, eventTime } = event.data;
      return {
        ...state,
        carrierEventKeys: new Set(state.carrierEventKeys).add(carrierEventKey(carrier, carrierCode, eventTime)),
      };
    }
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

export const foldParcel = (events: readonly ParcelEvent[]): ParcelState => events.reduce(evolve, initialState());

/** The parcel stream's decider, as the command handler runs it. */
export const parcelDecider: Decider<ParcelState, ParcelCommand, ParcelEvent> = { decide, evolve, initialState };
