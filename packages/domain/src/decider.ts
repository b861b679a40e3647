/**
 * A stream's rules as three pure functions: the events a command gives in a state (or a throw,
 * the refusal), the state an event leaves, and the state of a stream with no events. The
 * application's command handler runs any of them against the event store.
 */
export interface Decider<State, Command, Event> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** The state a decider's events leave, from its initial state. */
export const fold = <State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State => events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
