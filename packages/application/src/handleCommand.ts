/**
 * The one command handler: every write to a stream goes through it. Read the stream (or take the
 * events in hand), fold them to the decider's state, decide, append at the revision decided on;
 * a concurrent writer (a conflict) makes it read, fold and decide again, a bounded number of
 * times. `handleCommand` runs one stream's commands in one `append`; `handleCommands` runs several
 * streams' commands (create-order's reference claim and parcel, a page of carrier registrations)
 * in one `appendMany`, all committed or none.
 */
import { deserializeEvent } from '@parcel-logistics/contracts';
import type { Decider, DomainEvent } from '@parcel-logistics/domain';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { AppendRequest, EventStore } from '@parcel-logistics/eventstore';
import { toAppend } from './toAppend.ts';

/** An event of a stream with its id and its revision there. */
export interface Positioned<Event> {
  event: Event;
  eventId: string;
  revision: number;
}

/** A stream folded: its state, the revision of its last event (-1: no stream) and its events. */
export interface StreamState<State, Event> {
  state: State;
  revision: number;
  history: Positioned<Event>[];
}

/** The state events in hand (from revision 0) leave. */
export function foldHistory<State, Event>(
  decider: Pick<Decider<State, never, Event>, 'evolve' | 'initialState'>,
  history: readonly Positioned<Event>[],
): StreamState<State, Event> {
  let state = decider.initialState();
  for (const e of history) state = decider.evolve(state, e.event);
  return { state, revision: history.at(-1)?.revision ?? -1, history: [...history] };
}

/** A stream read and folded: what a command on it is decided on. */
export async function readStreamState<State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamName: string,
  decider: Pick<Decider<State, never, Event>, 'evolve' | 'initialState'>,
): Promise<StreamState<State, Event>> {
  const recorded = await eventStore.readStream(streamName);
  // A stream holds its own decider's events only.
  const history = recorded.map((r) => ({ event: deserializeEvent(r) as Event, eventId: r.id, revision: r.revision }));
  return foldHistory(decider, history);
}

/** One stream's part of a command: what to decide on it and how to record it. */
export interface StreamCommand<State, Command, Event> {
  streamName: string;
  decider: Decider<State, Command, Event>;
  /** A command, or several decided in turn (each on the state the one before leaves), or either from the state. */
  command: Command | readonly Command[] | ((state: State) => Command | readonly Command[]);
  /** Stored with each event appended. */
  metadata: Record<string, unknown>;
  /**
   * The stream's events already in hand, from revision 0 (none: a stream taken not to exist):
   * the first attempt decides on them without a read; a conflict reads the stream.
   */
  known?: readonly Positioned<Event>[];
}

/** What a stream's commands decided. */
export interface Decided<State, Event> {
  streamName: string;
  /** The state the commands were decided on, and the stream's events up to it. */
  state: State;
  history: Positioned<Event>[];
  /** The events decided, at the revisions they are appended at (none: nothing to record). */
  events: Positioned<Event>[];
  /** The state after them. */
  newState: State;
}

export interface HandleOptions<Outcome> {
  /** The id of each event decided (`Ids.eventId`). */
  eventId: () => string;
  /**
   * Runs once decided, before anything is appended (not at all when nothing was decided), with
   * what was decided: work the events stand for (a label rendered) happens first, and nothing is
   * appended if it throws. After a conflict it runs again on the new decision.
   */
  beforeAppend?: (decided: Outcome) => Promise<void>;
  /** Attempts before a conflict is given up (rethrown); 10 unless told. */
  maxAttempts?: number;
}

const MAX_ATTEMPTS = 10;

// A step of any decider: each step's own types are kept by the mapped result type below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStreamCommand = StreamCommand<any, any, any>;
type DecidedBy<T> = T extends StreamCommand<infer State, infer _Command, infer Event> ? Decided<State, Event> : never;
export type DecidedAll<T extends readonly AnyStreamCommand[]> = { -readonly [K in keyof T]: DecidedBy<T[K]> };

/** A step typed by its decider (a literal in an array of several deciders' steps is not checked otherwise). */
export const streamCommand = <State, Command, Event>(
  step: StreamCommand<State, Command, Event>,
): StreamCommand<State, Command, Event> => step;

function decideOn<State, Command, Event>(
  step: StreamCommand<State, Command, Event>,
  { state, revision, history }: StreamState<State, Event>,
  eventId: () => string,
): Decided<State, Event> {
  const asked =
    typeof step.command === 'function'
      ? (step.command as (state: State) => Command | readonly Command[])(state)
      : step.command;
  const commands = (Array.isArray(asked) ? asked : [asked]) as readonly Command[];
  let newState = state;
  const events: Positioned<Event>[] = [];
  for (const command of commands) {
    for (const event of step.decider.decide(command, newState)) {
      events.push({ event, eventId: eventId(), revision: revision + 1 + events.length });
      newState = step.decider.evolve(newState, event);
    }
  }
  return { streamName: step.streamName, state, history, events, newState };
}

async function run<T extends readonly AnyStreamCommand[]>(
  eventStore: EventStore,
  steps: T,
  options: HandleOptions<DecidedAll<T>>,
  write: (requests: AppendRequest[]) => Promise<unknown>,
): Promise<DecidedAll<T>> {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const folded = await Promise.all(
      steps.map((step) =>
        attempt === 1 && step.known
          ? foldHistory(step.decider, step.known)
          : readStreamState(eventStore, step.streamName, step.decider),
      ),
    );
    const decided = steps.map((step, i) => decideOn(step, folded[i]!, options.eventId)) as DecidedAll<T>;
    const requests: AppendRequest[] = decided.flatMap((d: Decided<unknown, DomainEvent>, i) =>
      d.events.length === 0
        ? []
        : [
            {
              streamName: d.streamName,
              expectedRevision: folded[i]!.revision < 0 ? 'no_stream' : folded[i]!.revision,
              events: d.events.map((e) => toAppend(e, steps[i]!.metadata)),
            },
          ],
    );
    if (requests.length === 0) return decided;
    await options.beforeAppend?.(decided);
    try {
      await write(requests);
      return decided;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
    }
  }
}

/** One stream's command(s), decided on its current state and appended at that revision (one `append`). */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  eventStore: EventStore,
  streamName: string,
  decider: Decider<State, Command, Event>,
  command: StreamCommand<State, Command, Event>['command'],
  options: HandleOptions<Decided<State, Event>> & Pick<StreamCommand<State, Command, Event>, 'metadata' | 'known'>,
): Promise<Decided<State, Event>> {
  const { metadata, known, beforeAppend, ...rest } = options;
  const step = { streamName, decider, command, metadata, ...(known ? { known } : {}) };
  const [decided] = await run(
    eventStore,
    [step] as const,
    { ...rest, ...(beforeAppend ? { beforeAppend: ([d]) => beforeAppend(d) } : {}) },
    ([request]) => eventStore.append(request!),
  );
  return decided;
}

/**
 * Several streams' commands, each decided on its stream's state, appended in one `appendMany`:
 * all commit or none does. A conflict on any of them decides them all again.
 */
export function handleCommands<const T extends readonly AnyStreamCommand[]>(
  eventStore: EventStore,
  steps: T,
  options: HandleOptions<DecidedAll<T>>,
): Promise<DecidedAll<T>> {
  return run(eventStore, steps, options, (requests) => eventStore.appendMany(requests));
}
