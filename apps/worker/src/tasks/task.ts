import type { IngestServices, Job } from '@brain/ingest';

/** One kind of job. It completes its job row itself, in the same transaction as its effect. */
export type Task = (services: IngestServices, job: Job, workerId: string, signal: AbortSignal) => Promise<unknown>;
