import type { Command } from 'commander';
import { registerTokenCreate } from './token-create.ts';
import { registerTokenList } from './token-list.ts';
import { registerTokenRevoke } from './token-revoke.ts';

/** `brain token create|list|revoke`: MCP bearer tokens, one workspace each. */
export function registerToken(program: Command): void {
  const token = program.command('token').description('MCP tokens: create (shown once), list, revoke');
  registerTokenCreate(token);
  registerTokenList(token);
  registerTokenRevoke(token);
}
