import type { Logger } from '@brain/observability';

/**
 * Work a request starts but does not wait for (sending a magic link), so the response takes the
 * same time whatever the work finds. Failures are logged, never swallowed; drain() lets a
 * shutdown (and a test) wait for what is in flight.
 */
export class BackgroundTasks {
  readonly #pending = new Set<Promise<void>>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  run(name: string, work: () => Promise<void>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => {
        this.#logger.error({ err: error, task: name }, 'background task failed');
      })
      .finally(() => {
        this.#pending.delete(task);
      });
    this.#pending.add(task);
  }

  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
