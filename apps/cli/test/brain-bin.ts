import { fileURLToPath } from 'node:url';
import { TEST_NODE_FLAGS } from '@brain/db/testing';

/** The `brain` binary, as a user runs it. */
export const BRAIN_BIN = fileURLToPath(new URL('../bin/brain.js', import.meta.url));

/** Node's arguments for `brain <args>` in a child process: the test processes' flags (TEST_NODE_FLAGS), then the binary. */
export function brainArgv(args: readonly string[]): string[] {
  return [...TEST_NODE_FLAGS, BRAIN_BIN, ...args];
}
