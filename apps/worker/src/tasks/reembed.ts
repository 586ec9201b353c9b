import { reembedArtifact } from '@brain/ingest';
import type { Task } from './task.ts';

/** Re-embed a source's passages with the configured model (`brain reembed`). */
export const reembedTask: Task = (services, job, workerId, signal) => reembedArtifact(services, job, workerId, signal);
