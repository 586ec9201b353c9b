import type { Queryable } from '@brain/db';
import { AppError } from '@brain/errors';

export interface RetrievalSettings {
  matchCount: number;
  minSimilarity: number;
}

/** The same bounds as the workspaces table's checks, so a refused value is refused here first, with words. */
export const MATCH_COUNT_RANGE = { min: 1, max: 20 } as const;
export const MIN_SIMILARITY_RANGE = { min: 0, max: 1 } as const;

export type SettingsParse = { ok: true; settings: RetrievalSettings } | { ok: false; errors: Partial<Record<keyof RetrievalSettings, string>> };

/** A form's two fields into settings, or a message per field that says what is allowed. */
export function parseRetrievalSettings(input: { matchCount: unknown; minSimilarity: unknown }): SettingsParse {
  const errors: Partial<Record<keyof RetrievalSettings, string>> = {};
  const k = toNumber(input.matchCount);
  if (k === null || !Number.isInteger(k) || k < MATCH_COUNT_RANGE.min || k > MATCH_COUNT_RANGE.max) {
    errors.matchCount = `Passages per answer must be a whole number from ${MATCH_COUNT_RANGE.min} to ${MATCH_COUNT_RANGE.max}.`;
  }
  const s = toNumber(input.minSimilarity);
  if (s === null || s < MIN_SIMILARITY_RANGE.min || s > MIN_SIMILARITY_RANGE.max) {
    errors.minSimilarity = `The similarity floor must be a number from ${MIN_SIMILARITY_RANGE.min} to ${MIN_SIMILARITY_RANGE.max}, like 0.25.`;
  }
  if (k === null || s === null || Object.keys(errors).length > 0) return { ok: false, errors };
  // Three decimals are more precision than similarity scores carry; it keeps 0.1 + 0.2 out of the form.
  return { ok: true, settings: { matchCount: k, minSimilarity: Math.round(s * 1000) / 1000 } };
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return null;
  return Number(value);
}

/** The workspace's k and similarity floor. Run as the tenant. */
export async function readRetrievalSettings(tx: Queryable, workspaceId: string): Promise<RetrievalSettings> {
  const [row] = await tx.query<{ match_count: number; min_similarity: number }>(
    'select match_count, min_similarity from workspaces where id = $1',
    [workspaceId],
  );
  if (!row) throw workspaceGone();
  return { matchCount: Number(row.match_count), minSimilarity: Number(row.min_similarity) };
}

/** Saves validated settings; every /ask after the commit uses them. Run as the tenant (it may update exactly these columns). */
export async function updateRetrievalSettings(tx: Queryable, workspaceId: string, settings: RetrievalSettings): Promise<RetrievalSettings> {
  const [row] = await tx.query<{ match_count: number; min_similarity: number }>(
    'update workspaces set match_count = $2, min_similarity = $3 where id = $1 returning match_count, min_similarity',
    [workspaceId, settings.matchCount, settings.minSimilarity],
  );
  if (!row) throw workspaceGone();
  return { matchCount: Number(row.match_count), minSimilarity: Number(row.min_similarity) };
}

function workspaceGone(): AppError {
  return new AppError({
    code: 'WORKSPACE_NOT_FOUND',
    message: 'The session names a workspace that no longer exists.',
    userMessage: 'This workspace no longer exists.',
    nextStep: 'Log in again.',
    httpStatus: 404,
  });
}
