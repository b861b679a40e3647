/**
 * The import stream's decider: the file's validated summary is recorded once; each part's outcome
 * is recorded once and in order; the import finishes once, after its last part. A worker that
 * redoes a part after a restart records nothing twice.
 */
import type { Decider } from '../decider.ts';
import type { OrderImportEvent, RejectedRow } from './events.ts';

export type OrderImportState =
  | { status: 'none' }
  | {
      status: 'running' | 'finished';
      importId: string;
      clientId: string;
      rows: number;
      accepted: number;
      parts: number;
      /** Parts whose orders are created, from part 0 on. */
      partsCreated: number;
      created: number;
      /** Every row refused: by validation (`rows - accepted`), then on creation. */
      rejectedCount: number;
      /** The rejections kept: validation's first ones, then creation's, part by part. */
      rejected: RejectedRow[];
      acceptedAt: Date;
      finishedAt?: Date;
    };

export type OrderImportCommand =
  | {
      type: 'AcceptOrderImport';
      data: Omit<Extract<OrderImportEvent, { type: 'OrderImportAccepted' }>['data'], 'acceptedAt'> & { now: Date };
    }
  | { type: 'RecordImportPart'; data: { part: number; created: number; rejected: RejectedRow[]; now: Date } }
  | { type: 'FinishOrderImport'; data: { now: Date } };

export const orderImportDecider: Decider<OrderImportState, OrderImportCommand, OrderImportEvent> = {
  decide(command, state) {
    if (command.type === 'AcceptOrderImport') {
      if (state.status !== 'none') return [];
      const { now, ...data } = command.data;
      return [{ type: 'OrderImportAccepted', data: { ...data, acceptedAt: now } }];
    }
    if (state.status === 'none') throw new Error('no such import');
    const { importId } = state;
    if (command.type === 'RecordImportPart') {
      const { part, created, rejected, now } = command.data;
      // A part redone after a restart was recorded the first time.
      if (part < state.partsCreated) return [];
      if (part !== state.partsCreated)
        throw new Error(`part ${part} of import ${importId} before part ${state.partsCreated}`);
      return [{ type: 'OrderImportPartCreated', data: { importId, part, created, rejected, createdAt: now } }];
    }
    if (state.status === 'finished') return [];
    if (state.partsCreated < state.parts) throw new Error(`import ${importId} has parts left`);
    return [{ type: 'OrderImportFinished', data: { importId, finishedAt: command.data.now } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'OrderImportAccepted': {
        const { acceptedAt, rejected, ...data } = event.data;
        return {
          status: 'running',
          ...data,
          partsCreated: 0,
          created: 0,
          rejectedCount: data.rows - data.accepted,
          rejected,
          acceptedAt,
        };
      }
      case 'OrderImportPartCreated':
        if (state.status === 'none') return state;
        return {
          ...state,
          partsCreated: event.data.part + 1,
          created: state.created + event.data.created,
          rejectedCount: state.rejectedCount + event.data.rejected.length,
          rejected: [...state.rejected, ...event.data.rejected],
        };
      case 'OrderImportFinished':
        if (state.status === 'none') return state;
        return { ...state, status: 'finished', finishedAt: event.data.finishedAt };
    }
  },
  initialState: () => ({ status: 'none' }),
};
