import type { Command } from 'commander';
import { registerSyncAdd } from './sync-add.ts';
import { registerSyncList } from './sync-list.ts';
import { registerSyncRemove } from './sync-remove.ts';

/** `brain sync list|add|remove`: what /sync does, from a terminal. */
export function registerSync(program: Command): void {
  const sync = program.command('sync').description('channels kept in the brain (/sync): list, add, remove');
  registerSyncList(sync);
  registerSyncAdd(sync);
  registerSyncRemove(sync);
}
