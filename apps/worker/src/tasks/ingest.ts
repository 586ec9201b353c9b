import { indexArtifact } from '@brain/ingest';
import type { Task } from './task.ts';

/** Fetch, extract, chunk, embed and swap in one saved source. */
export const ingestTask: Task = (services, job, workerId, signal) => indexArtifact(services, job, workerId, signal);
