/**
 * Whether this instance should be sent traffic, as GET /readyz reports it to a load balancer.
 * 'starting' until the warm-up has run (a cold instance's first requests pay for opening the
 * database pool and compiling the interaction path: a second and more on a busy machine), then
 * 'ready', then 'draining' from the first moment of a graceful close.
 */
export type ReadinessState = 'starting' | 'ready' | 'draining';

export interface Readiness {
  readonly state: ReadinessState;
  ready(): void;
  draining(): void;
}

export function createReadiness(initial: ReadinessState = 'starting'): Readiness {
  let state = initial;
  return {
    get state() {
      return state;
    },
    ready() {
      if (state === 'starting') state = 'ready';
    },
    draining() {
      state = 'draining';
    },
  };
}
