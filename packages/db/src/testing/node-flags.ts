/**
 * Node flags for the test processes: vitest's workers and the `brain` children the suites start.
 *
 * `--liftoff-only` compiles WebAssembly (the embedded database's 9 MB) with V8's baseline compiler
 * alone, as one-shot commands already do in production (apps/cli/src/one-shot-compile.ts). A test
 * process lives seconds to minutes and spends its CPU on opening databases, not on long queries, so
 * the optimising compile running beside it rarely pays back: measured on this machine's two cores,
 * packages/db's suites with PostgreSQL took 235 CPU s by default and 210 with the flag, apps/cli's
 * 572 and 534 with it on the `brain` children alone. The flag changes how fast code runs, never
 * what it does; the servers' default compile stays covered by the browser suites and the CI evals,
 * which run `brain start` and `brain eval` as users do.
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
