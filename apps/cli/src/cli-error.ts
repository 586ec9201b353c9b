import { coerceError } from '@brain/errors';

/**
 * What a person at a terminal sees when a command fails: what happened and what to do next.
 * An unexpected error adds how to get its stack; an expected one never shows a stack.
 */
export function formatCliError(error: unknown, debug: boolean): string {
  const err = coerceError(error);
  const lines = [`error: ${err.message}`];
  if (err.nextStep) lines.push(`  next: ${err.nextStep}`);
  if (err.code === 'INTERNAL') {
    const cause = err.cause instanceof Error ? err.cause : err;
    lines.push(debug ? (cause.stack ?? '') : '  (set BRAIN_DEBUG=1 to see where it failed)');
  }
  return lines.join('\n') + '\n';
}
