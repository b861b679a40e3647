/**
 * The manifest stream's decider: recorded once with its list, completed once with the parcels
 * marked. A redelivered command finds it recorded (or completed) and records nothing again.
 */
import type { Decider } from '../decider.ts';
import type { ManifestEvent, ManifestLine } from './events.ts';

export type ManifestState =
  | { status: 'none' }
  | {
      status: 'recorded' | 'completed';
      manifestId: string;
      clientId: string;
      carrier: string;
      lines: ManifestLine[];
      recordedAt: Date;
      /** The parcels marked, once completed. */
      trackingNumbers: string[];
      completedAt?: Date;
    };

export type ManifestCommand =
  | {
      type: 'RecordManifest';
      data: { manifestId: string; clientId: string; carrier: string; lines: ManifestLine[]; now: Date };
    }
  | { type: 'CompleteManifest'; data: { trackingNumbers: string[]; now: Date } };

export const manifestDecider: Decider<ManifestState, ManifestCommand, ManifestEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'RecordManifest': {
        if (state.status !== 'none') return [];
        const { now, ...data } = command.data;
        return [{ type: 'ManifestRecorded', data: { ...data, recordedAt: now } }];
      }
      case 'CompleteManifest': {
        if (state.status === 'none') throw new Error('no manifest to complete');
        if (state.status === 'completed') return [];
        const marked = new Set(command.data.trackingNumbers);
        // Only numbers of its own list, in the list's order.
        const trackingNumbers = state.lines.map((l) => l.trackingNumber).filter((n) => marked.has(n));
        return [
          {
            type: 'ManifestCompleted',
            data: { manifestId: state.manifestId, trackingNumbers, completedAt: command.data.now },
          },
        ];
      }
      default: {
        const unhandled: never = command;
        throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ManifestRecorded':
        return { status: 'recorded', ...event.data, trackingNumbers: [] };
      case 'ManifestCompleted':
        if (state.status === 'none') return state;
        return {
          ...state,
          status: 'completed',
          trackingNumbers: event.data.trackingNumbers,
          completedAt: event.data.completedAt,
        };
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  },
  initialState: () => ({ status: 'none' }),
};

/** A manifest's line of a parcel: the weight as declared and the items it counts. */
export const manifestPieces = (lines: readonly { quantity: number }[]): number =>
  lines.reduce((sum, l) => sum + l.quantity, 0);
