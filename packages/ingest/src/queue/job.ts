export interface Job {
  id: string;
  workspaceId: string;
  artifactId: string | null;
  task: string;
  payload: Record<string, unknown>;
  /** Including the current one. */
  attempts: number;
  maxAttempts: number;
}

export interface JobRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  artifact_id: string | null;
  task: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    artifactId: row.artifact_id,
    task: row.task,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

/** Exponential backoff with full jitter: 5 s, 10 s, 20 s … capped at 15 minutes. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(15 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
