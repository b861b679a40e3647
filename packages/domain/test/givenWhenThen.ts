/**
 * Given/when/then for any decider: given the stream's events, when a command is decided, then
 * these events, or this refusal. Every decider's tests are written with it.
 */
import { fold } from '../src/decider.ts';
import type { Decider } from '../src/decider.ts';

type ErrorClass = new (...args: never[]) => Error;

/**
 * `refusal`: the error class the decider refuses a command with; `thenThrows(message)` checks that
 * class and the message (a code, for the parcel's `ParcelError`).
 */
export function givenWhenThen<State, Command, Event>(
  decider: Decider<State, Command, Event>,
  refusal: ErrorClass = Error,
) {
  return (...events: Event[]) => {
    const state = (): State => fold(decider, events);
    return {
      /** The state the given events leave. */
      state,
      when: (command: Command) => {
        const decide = () => decider.decide(command, state());
        return {
          /** The events decided, to build the next given with. */
          events: decide,
          then: (expected: Event[]) => expect(decide()).toEqual(expected),
          thenThrows: (message?: string) => {
            expect(decide).toThrow(refusal);
            if (message !== undefined) expect(decide).toThrow(message);
          },
        };
      },
    };
  };
}
