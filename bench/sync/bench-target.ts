import type { OpenDatabaseTarget } from '@brain/db';

/** Where the bench's database lives: an embedded data directory, or a PostgreSQL database. */
export type BenchDbTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export interface SyncChildArgs {
  db: BenchDbTarget;
  apiBase: string;
  botToken: string;
  workspaceId: string;
  syncedChannelId: string;
  runId: string;
  concurrency?: number;
}

export function dbTarget(target: BenchDbTarget): OpenDatabaseTarget {
  return target.kind === 'pglite'
    ? { kind: 'pglite', dataDir: target.dataDir, display: 'bench data dir' }
    : { kind: 'postgres', url: target.url, display: 'bench database', prepare: true };
}
