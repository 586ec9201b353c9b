import type { Logger } from '@brain/observability';

export interface WorkSignals {
  /** Fires when the process starts draining: waits that may end early (indexing progress) should. */
  draining: AbortSignal;
  /** Fires when the drain grace period is over: stop, and send the last edit now. */
  stop: AbortSignal;
}

/**
 * After the grace period, how long stopped work may take to send its last edit (the "restarted"
 * notice) before the drain stops waiting: the platform's shutdown delay must cover grace + this.
 */
export const FINAL_EDIT_MS = 10_000;

type Job = { label: string; work: (signals: WorkSignals) => Promise<void> };

/**
 * The work that follows an acknowledgement (an answer, a save, a receipt) runs after the HTTP
 * response, at most `concurrency` at a time: the rest wait their turn, so a burst of /ask never
 * crowds out the acknowledgements of the interactions behind it (with the embedded database,
 * every statement runs on this very thread). It is tracked so a SIGTERM waits for it: the process
 * stops taking requests, lets queued and running work finish (telling long waits to wrap up),
 * and only then closes the database.
 */
export class InFlightWork {
  private readonly queue: Job[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly drainController = new AbortController();
  private readonly stopController = new AbortController();
  private idle: (() => void)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly concurrency = 16,
  ) {}

  /** Work running or waiting to run. */
  get size(): number {
    return this.running.size + this.queue.length;
  }

  /** Queues `work`; it starts on a later turn of the event loop, after the response was written. */
  start(label: string, work: (signals: WorkSignals) => Promise<void>): void {
    this.queue.push({ label, work });
    if (this.queue.length > 0 && this.queue.length % 500 === 0) this.logger.warn({ queued: this.queue.length }, 'interaction work is queueing up');
    setImmediate(() => this.pump());
  }

  private pump(): void {
    while (this.running.size < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      const signals = { draining: this.drainController.signal, stop: this.stopController.signal };
      const run: Promise<void> = job
        .work(signals)
        .catch((error: unknown) => this.logger.error({ err: error, work: job.label }, 'interaction work failed after its acknowledgement'))
        .finally(() => {
          this.running.delete(run);
          if (this.queue.length > 0) setImmediate(() => this.pump());
          else if (this.running.size === 0) this.idle.splice(0).forEach((resolve) => resolve());
        });
      this.running.add(run);
    }
  }

  /**
   * Resolves once everything queued or running has finished. After `graceMs` the work is told to
   * stop (it then sends its last edit); after `graceMs + finalEditMs` the drain gives up waiting.
   */
  async drain(graceMs: number, finalEditMs = FINAL_EDIT_MS): Promise<void> {
    this.drainController.abort();
    if (this.size === 0) return;
    this.logger.info({ inFlight: this.size, graceMs }, 'draining interaction work');
    const stopTimer = setTimeout(() => this.stopController.abort(), graceMs);
    let giveUp: NodeJS.Timeout | undefined;
    const finished = new Promise<'done'>((resolve) => this.idle.push(() => resolve('done')));
    const gaveUp = new Promise<'gave-up'>((resolve) => {
      giveUp = setTimeout(() => resolve('gave-up'), graceMs + finalEditMs);
    });
    try {
      if ((await Promise.race([finished, gaveUp])) === 'gave-up') this.logger.warn({ inFlight: this.size }, 'drain gave up on interaction work still running');
    } finally {
      clearTimeout(stopTimer);
      clearTimeout(giveUp);
    }
  }
}
