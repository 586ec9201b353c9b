import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { AppError } from '@brain/errors';
import { deserializeError, sandboxCrashed, sandboxMemory, sandboxTimeout } from '../extract-errors.ts';
import type { ExtractedDocument } from '../types.ts';
import { readProcessUsage } from './process-usage.ts';
import type { JobMessage, SandboxMessage } from './protocol.ts';

/**
 * Why child processes and not worker_threads: a worker's `resourceLimits` cap only V8's heap,
 * while pdf.js decodes into ArrayBuffers that no heap limit sees, and a worker that exhausts
 * the process's memory takes the whole worker process (and every other job) down with it. A
 * child process is killed by the OS as a unit: its heap is capped by --max-old-space-size, its
 * RSS (ArrayBuffers included) and CPU time by the watchdog below, its wall time by SIGKILL. Nothing it does —
 * a native crash, an infinite loop, a stack overflow — can reach the parent. The price is a
 * cold start per process, paid once: processes are pooled and reused.
 */
export interface SandboxPoolOptions {
  /** Processes at most (parallel documents). */
  size: number;
  /** V8 old-space cap of each process. */
  maxHeapMb: number;
  /** An idle process is stopped after this long (it is restarted on demand). */
  idleMs: number;
  /** A process is replaced after this many documents, so slow leaks cannot accumulate. */
  maxJobsPerProcess: number;
  /** A process that is not ready after this long is treated as crashed. */
  startTimeoutMs: number;
  /** The sandbox's environment. Empty by default: a parser has no business seeing secrets. */
  env: Record<string, string>;
}

export type SandboxJob = Omit<JobMessage, 'type' | 'id'>;

interface Running {
  id: number;
  resolve: (document: ExtractedDocument) => void;
  reject: (error: AppError) => void;
  timers: NodeJS.Timeout[];
}

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
  jobs: number;
  stderrTail: string;
  running?: Running;
  /** Set when the pool itself kills the process: the reason its job failed. */
  killedFor?: AppError;
  idleTimer?: NodeJS.Timeout;
}

interface Queued {
  job: SandboxJob;
  resolve: (document: ExtractedDocument) => void;
  reject: (error: AppError) => void;
}

const BOOTSTRAP = fileURLToPath(new URL('./child-bootstrap.mjs', import.meta.url));
const WATCHDOG_MS = 20;
const WALL_FACTOR = 3;

export class SandboxPool {
  readonly #options: SandboxPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Queued[] = [];
  #nextId = 1;
  #closed = false;
  /** Counters for tests and operators: processes started, and killed by the watchdog. */
  readonly counters = { started: 0, killed: 0 };

  constructor(options: SandboxPoolOptions) {
    this.#options = options;
  }

  run(job: SandboxJob): Promise<ExtractedDocument> {
    if (this.#closed) return Promise.reject(sandboxCrashed('the extractor was closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      this.#pump();
    });
  }

  /** Starts every process now, so the first documents do not wait for a cold start. */
  async warm(): Promise<void> {
    while (this.#slots.size < this.#options.size) this.#spawn();
    await Promise.all([...this.#slots].map((slot) => slot.ready.catch(() => undefined)));
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.reject(sandboxCrashed('the extractor was closed'));
    await Promise.all([...this.#slots].map((slot) => this.#stop(slot, sandboxCrashed('the extractor was closed'))));
  }

  get processes(): number {
    return this.#slots.size;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = [...this.#slots].find((s) => !s.busy);
      if (!slot && this.#slots.size < this.#options.size) slot = this.#spawn();
      if (!slot) return;
      const next = this.#queue.shift();
      if (!next) return;
      void this.#execute(slot, next);
    }
  }

  #spawn(): Slot {
    const child = fork(BOOTSTRAP, [], {
      execArgv: [
        `--max-old-space-size=${this.#options.maxHeapMb}`,
        '--max-semi-space-size=16',
        // No eval / new Function: an exploit in a parser cannot compile code from a document.
        '--disallow-code-generation-from-strings',
      ],
      env: this.#options.env,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.counters.started++;
    let markReady: () => void = () => undefined;
    let failStart: (error: AppError) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    const slot: Slot = { child, ready, busy: false, jobs: 0, stderrTail: '' };
    this.#slots.add(slot);

    // The pool's own timers keep the parent alive while work is pending; an idle sandbox must not.
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket | null)?.unref();
    child.stderr?.on('data', (chunk: Buffer) => {
      slot.stderrTail = (slot.stderrTail + chunk.toString('utf8')).slice(-4096);
    });

    const startTimer = setTimeout(() => {
      failStart(sandboxCrashed(`not ready after ${this.#options.startTimeoutMs} ms`));
      void this.#stop(slot);
    }, this.#options.startTimeoutMs);
    child.on('message', (message: SandboxMessage) => {
      if (message.type === 'ready') {
        clearTimeout(startTimer);
        markReady();
      } else if (slot.running?.id === message.id) {
        const running = slot.running;
        this.#finish(slot);
        if (message.type === 'result') running.resolve(message.document);
        else running.reject(deserializeError(message.error));
        this.#afterJob(slot);
      }
    });
    child.on('error', () => undefined); // spawn and IPC errors surface as 'exit' too
    child.once('exit', (code, signal) => {
      clearTimeout(startTimer);
      clearTimeout(slot.idleTimer);
      this.#slots.delete(slot);
      const failure = slot.killedFor ?? this.#explainExit(slot, code, signal);
      failStart(failure);
      const running = slot.running;
      if (running) {
        this.#finish(slot);
        running.reject(failure);
      }
      this.#pump();
    });
    ready.catch(() => undefined);
    return slot;
  }

  async #execute(slot: Slot, queued: Queued): Promise<void> {
    slot.busy = true;
    clearTimeout(slot.idleTimer);
    try {
      await slot.ready;
    } catch (error) {
      queued.reject(error as AppError);
      return;
    }
    const id = this.#nextId++;
    const { job } = queued;
    const { timeoutMs, maxRssMb } = job.limits;
    const pid = slot.child.pid ?? 0;
    // The time limit is CPU time where /proc can tell it: a document is judged by what it costs,
    // not by how busy the machine is. The wall clock still ends anything at WALL_FACTOR times it.
    const cpuAtStart = readProcessUsage(pid)?.cpuMs;
    const wallMs = cpuAtStart === undefined ? timeoutMs : timeoutMs * WALL_FACTOR;
    const wall = setTimeout(() => this.#kill(slot, sandboxTimeout(timeoutMs)), wallMs);
    const watchdog = setInterval(() => {
      const usage = readProcessUsage(pid);
      if (!usage) return;
      if (usage.rssMb > maxRssMb) this.#kill(slot, sandboxMemory(maxRssMb, Math.round(usage.rssMb)));
      else if (cpuAtStart !== undefined && usage.cpuMs - cpuAtStart > timeoutMs) this.#kill(slot, sandboxTimeout(timeoutMs));
    }, WATCHDOG_MS);
    slot.running = { id, resolve: queued.resolve, reject: queued.reject, timers: [wall, watchdog] };
    try {
      slot.child.send({ type: 'job', id, ...job } satisfies JobMessage);
    } catch {
      this.#kill(slot, sandboxCrashed('it could not be sent the document'));
    }
  }

  #finish(slot: Slot): void {
    for (const timer of slot.running?.timers ?? []) clearTimeout(timer);
    slot.running = undefined;
  }

  #afterJob(slot: Slot): void {
    slot.jobs++;
    slot.busy = false;
    if (slot.jobs >= this.#options.maxJobsPerProcess) {
      void this.#stop(slot);
    } else {
      slot.idleTimer = setTimeout(() => void this.#stop(slot), this.#options.idleMs);
      slot.idleTimer.unref();
    }
    this.#pump();
  }

  #kill(slot: Slot, reason: AppError): void {
    if (slot.killedFor) return;
    slot.killedFor = reason;
    this.counters.killed++;
    slot.child.kill('SIGKILL');
  }

  /** Ends a process; resolves once it is gone. */
  #stop(slot: Slot, reason?: AppError): Promise<void> {
    if (slot.child.exitCode !== null || slot.child.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((resolve) => slot.child.once('exit', () => resolve()));
    slot.child.ref(); // whoever awaits this must not see the event loop end first
    slot.killedFor ??= reason;
    slot.busy = true; // nothing new is scheduled on a process on its way out
    slot.child.kill('SIGKILL');
    return gone;
  }

  #explainExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): AppError {
    // V8 prints this and aborts when --max-old-space-size is reached.
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(slot.stderrTail)) {
      return sandboxMemory(this.#options.maxHeapMb, undefined);
    }
    return sandboxCrashed(signal ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`, {
      stderr: slot.stderrTail.slice(-500),
    });
  }
}
