import type { FeedbackEvent } from '@feedback/events';

/**
 * An aggregate as three pure functions. `decide` returns the events a command causes plus
 * whatever the caller needs to answer (an id, a created/existing flag); it throws DomainError
 * when a rule forbids the command.
 */
export interface Decider<State, Command, Result = void> {
  initialState: () => State;
  evolve: (state: State, event: FeedbackEvent) => State;
  decide: (command: Command, state: State) => Decision<Result>;
}

export interface Decision<Result> {
  events: FeedbackEvent[];
  result: Result;
}

export function fold<State>(decider: Pick<Decider<State, never, unknown>, 'initialState' | 'evolve'>, events: Iterable<FeedbackEvent>): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
