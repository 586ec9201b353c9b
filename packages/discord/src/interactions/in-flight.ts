import type { Logger } from '@brain/observability';

export interface WorkSignals {
  /** Fires when the process starts draining: waits that may end early (indexing progress) should. */
  draining: AbortSignal;
  /** Fires when the drain grace period is over: stop, and send the last edit now. */
  stop: AbortSignal;
}

/**
 * The work that follows an acknowledgement (an answer, a save, a receipt) runs after the HTTP
 * response. It is tracked here so a SIGTERM waits for it: the process stops taking requests,
 * lets in-flight work finish (telling long waits to wrap up), and only then closes the database.
 */
export class InFlightWork {
  private readonly running = new Set<Promise<void>>();
  private readonly drainController = new AbortController();
  private readonly stopController = new AbortController();

  constructor(private readonly logger: Logger) {}

  get size(): number {
    return this.running.size;
  }

  get draining(): boolean {
    return this.drainController.signal.aborted;
  }

  /** Starts `work` on the next turn of the event loop, after the response has been written. */
  start(label: string, work: (signals: WorkSignals) => Promise<void>): void {
    const signals = { draining: this.drainController.signal, stop: this.stopController.signal };
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => work(signals))
      .catch((error: unknown) => this.logger.error({ err: error, work: label }, 'interaction work failed after its acknowledgement'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /**
   * Resolves once everything running has finished. After `graceMs` the work is told to stop (it
   * then sends its last edit); after `graceMs + finalEditMs` the drain gives up waiting.
   */
  async drain(graceMs: number, finalEditMs = 10_000): Promise<void> {
    this.drainController.abort();
    if (this.running.size === 0) return;
    this.logger.info({ inFlight: this.running.size, graceMs }, 'draining interaction work');
    const stopTimer = setTimeout(() => this.stopController.abort(), graceMs);
    let giveUp: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave-up'>((resolve) => {
      giveUp = setTimeout(() => resolve('gave-up'), graceMs + finalEditMs);
    });
    try {
      while (this.running.size > 0) {
        if ((await Promise.race([Promise.allSettled([...this.running]), gaveUp])) === 'gave-up') {
          this.logger.warn({ inFlight: this.running.size }, 'drain gave up on interaction work still running');
          return;
        }
      }
    } finally {
      clearTimeout(stopTimer);
      clearTimeout(giveUp);
    }
  }
}
