import type { Database } from '@brain/db';
import { findWorkspaceByGuild } from '../queries/find-workspace-by-guild.ts';

export type WorkspaceResolution =
  | { kind: 'ready'; workspaceId: string }
  | { kind: 'not-installed' }
  | { kind: 'unclaimed'; workspaceId: string };

export interface WorkspaceResolver {
  resolve(guildId: string): Promise<WorkspaceResolution>;
  /** Drops a cached answer (after an install or a claim, so the next command sees it at once). */
  forget(guildId: string): void;
}

export interface ResolverOptions {
  /** How long a ready workspace is remembered. */
  readyTtlMs?: number;
  /** How long "not installed" / "unclaimed" is remembered: short, so a fresh claim works at once. */
  notReadyTtlMs?: number;
  now?: () => number;
}

/**
 * guild_id → workspace, cached: the acknowledgement path must not wait on the database for
 * every interaction. One query the first time a server is seen; after that, a ready server's
 * entry is read again in the background when it expires, and the expired answer serves until
 * then. The database may be busy behind a long write (indexing), and every acknowledgement of
 * that server would otherwise wait on the one refresh, on a thread that gives way to this one.
 * An uninstalled server is therefore seen as ready for at most one more refresh; its deferred
 * work then fails and says so.
 */
export function createGuildWorkspaceResolver(db: Database, options: ResolverOptions = {}): WorkspaceResolver {
  const readyTtl = options.readyTtlMs ?? 60_000;
  const notReadyTtl = options.notReadyTtlMs ?? 5_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { value: WorkspaceResolution; expires: number }>();
  const inFlight = new Map<string, Promise<WorkspaceResolution>>();

  async function lookUp(guildId: string): Promise<WorkspaceResolution> {
    const row = await findWorkspaceByGuild(db, guildId);
    const value: WorkspaceResolution = !row ? { kind: 'not-installed' } : row.claimed ? { kind: 'ready', workspaceId: row.id } : { kind: 'unclaimed', workspaceId: row.id };
    cache.set(guildId, { value, expires: now() + (value.kind === 'ready' ? readyTtl : notReadyTtl) });
    if (cache.size > 50_000) cache.delete(cache.keys().next().value as string);
    return value;
  }

  return {
    async resolve(guildId) {
      const hit = cache.get(guildId);
      if (hit && hit.expires > now()) return hit.value;
      // Concurrent interactions from a server share one query.
      let pending = inFlight.get(guildId);
      if (!pending) {
        pending = lookUp(guildId).finally(() => inFlight.delete(guildId));
        inFlight.set(guildId, pending);
      }
      if (hit?.value.kind === 'ready') {
        // A failed refresh leaves the entry expired: the next interaction tries again.
        pending.catch(() => {});
        return hit.value;
      }
      return pending;
    },
    forget(guildId) {
      cache.delete(guildId);
    },
  };
}
