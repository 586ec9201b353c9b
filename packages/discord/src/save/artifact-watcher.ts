import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import { loadArtifactProgress, type ArtifactProgress } from '../queries/load-artifact-progress.ts';

interface Waiter {
  workspaceId: string;
  ids: string[];
  resolve(progress: ArtifactProgress[]): void;
  latest: ArtifactProgress[];
}

/** Settled: no ingestion job pending, and the artifact ready or failed. */
export function isSettled(p: ArtifactProgress): boolean {
  return !p.pending && (p.status === 'ready' || p.status === 'failed');
}

/**
 * Waits for saved sources to finish indexing, for /save's second edit. One poller serves every
 * waiting interaction (one query per workspace per tick), so a burst of saves costs a handful
 * of cheap queries a second, not one loop each.
 */
export class ArtifactWatcher {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  /**
   * Resolves with the final progress once every artifact has settled, or with the latest known
   * progress when `signal` aborts (the token window is closing, or the process is draining).
   */
  wait(workspaceId: string, ids: string[], signal: AbortSignal): Promise<ArtifactProgress[]> {
    return new Promise((resolve) => {
      const waiter: Waiter = { workspaceId, ids, latest: [], resolve };
      const finish = (progress: ArtifactProgress[]) => {
        this.waiters.delete(waiter);
        signal.removeEventListener('abort', onAbort);
        resolve(progress);
      };
      const onAbort = () => finish(waiter.latest);
      waiter.resolve = finish;
      if (signal.aborted) return resolve([]);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.schedule(0);
    });
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.waiters.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'checking indexing progress failed; will retry'))
        .finally(() => this.schedule(this.intervalMs));
    }, delayMs);
  }

  private async tick(): Promise<void> {
    const byWorkspace = new Map<string, Waiter[]>();
    for (const w of this.waiters) byWorkspace.set(w.workspaceId, [...(byWorkspace.get(w.workspaceId) ?? []), w]);
    for (const [workspaceId, waiters] of byWorkspace) {
      const ids = [...new Set(waiters.flatMap((w) => w.ids))];
      const progress = new Map((await loadArtifactProgress(this.db, workspaceId, ids)).map((p) => [p.id, p]));
      for (const w of waiters) {
        w.latest = w.ids.flatMap((id) => progress.get(id) ?? []);
        // An artifact that vanished (deleted meanwhile) counts as settled: there is nothing to wait for.
        if (w.latest.every(isSettled)) w.resolve(w.latest);
      }
    }
  }
}
