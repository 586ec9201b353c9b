import { z } from 'zod';
import { FORGET_RETENTION_DAYS, type SourceSummary } from '@brain/ingest';
import { clip } from './budget.ts';

export const SOURCE_STATUSES = ['queued', 'indexing', 'ready', 'failed'] as const;
export const SOURCE_KINDS = ['url', 'file', 'text', 'discord_message', 'discord_thread'] as const;

/** A source as the tools show it: snake_case, ISO dates, nothing an agent cannot use. */
export const sourceSchema = z.object({
  id: z.string().describe('The source id, for get_source, forget_source and restore_source.'),
  kind: z.enum(SOURCE_KINDS),
  title: z.string().nullable(),
  url: z.string().nullable().describe('Where the source came from (cite it); null for saved text.'),
  file_name: z.string().nullable(),
  status: z.enum(SOURCE_STATUSES).describe('queued or indexing: not searchable yet; ready: searchable; failed: see error_code.'),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  passages: z.number().int().describe('How many passages the source was split into.'),
  saved_by: z.string().nullable(),
  created_at: z.string(),
  indexed_at: z.string().nullable(),
  forgotten: z.boolean().describe('True when forgotten: it is in no answer until restore_source.'),
  restorable_until: z.string().nullable().describe('For a forgotten source, when it is deleted for good.'),
});

export type SourceView = z.infer<typeof sourceSchema>;

const TITLE_MAX = 300;
const ERROR_MAX = 500;

/** Titles come from the pages themselves: bounded, so one cannot eat a result's budget. */
export function clipTitle(title: string | null): string | null {
  return title === null ? null : clip(title, TITLE_MAX);
}

export function toSourceView(s: SourceSummary): SourceView {
  return {
    id: s.id,
    kind: s.kind,
    title: clipTitle(s.title),
    url: s.url,
    file_name: s.fileName,
    status: s.status,
    error_code: s.errorCode,
    error_message: s.errorMessage === null ? null : clip(s.errorMessage, ERROR_MAX),
    passages: s.passages,
    saved_by: s.savedBy,
    created_at: s.createdAt.toISOString(),
    indexed_at: s.indexedAt?.toISOString() ?? null,
    forgotten: s.forgottenAt !== null,
    restorable_until: s.forgottenAt ? new Date(s.forgottenAt.getTime() + FORGET_RETENTION_DAYS * 86_400_000).toISOString() : null,
  };
}

/** One line per source, for the text mirror of a result. */
export function sourceLine(s: SourceView): string {
  const state = s.forgotten ? `forgotten (restorable until ${s.restorable_until})` : s.status === 'failed' ? `failed: ${s.error_code}` : s.status;
  return `- ${s.title ?? '(untitled)'} [${state}, ${s.passages} passages] id=${s.id}${s.url ? ` ${s.url}` : ''}`;
}
