import { withWorkspace, type Database } from '@brain/db';
import { latencyPercentiles, type StagePercentiles } from './queries/latency-percentiles.ts';
import { overviewFigures, type OverviewFigures } from './queries/overview.ts';
import { passagesById, type PassageInfo } from './queries/passages.ts';
import { getQuestion, type QuestionDetail } from './queries/question-detail.ts';
import { listQuestions, type QuestionFilter, type QuestionPage } from './queries/questions.ts';
import { parseRetrievalSettings, readRetrievalSettings, updateRetrievalSettings, type RetrievalSettings, type SettingsParse } from './queries/retrieval-settings.ts';
import { previewSettings, type SettingsPreview } from './queries/settings-preview.ts';
import { similarityHistogram, type SimilarityBin } from './queries/similarity-histogram.ts';
import { sourceLabels, type SourceLabel } from './queries/source-labels.ts';
import { topSources, type TopSource } from './queries/top-sources.ts';
import { unansweredByDay, type DayCount } from './queries/unanswered-by-day.ts';

/*
 * What each dashboard page reads, in one transaction as the session's workspace: one snapshot
 * per page, Row Level Security on every statement, and every query's own workspace predicate.
 * Independent statements are issued together: on PostgreSQL they are pipelined on the
 * transaction's connection (one round trip instead of six); PGlite runs them in turn.
 */

export interface OverviewData {
  figures: OverviewFigures;
  settings: RetrievalSettings;
  similarity: SimilarityBin[];
  byDay: DayCount[];
  latency: StagePercentiles[];
  topSources: (TopSource & { source: SourceLabel | undefined })[];
}

export async function loadOverview(db: Database, workspaceId: string, days: number): Promise<OverviewData> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const [figures, settings, similarity, byDay, latency, top] = await Promise.all([
      overviewFigures(tx, workspaceId, days),
      readRetrievalSettings(tx, workspaceId),
      similarityHistogram(tx, workspaceId, days),
      unansweredByDay(tx, workspaceId, days),
      latencyPercentiles(tx, workspaceId, days),
      topSources(tx, workspaceId, days),
    ]);
    const labels = await sourceLabels(tx, workspaceId, top.map((t) => t.artifactId));
    return { figures, settings, similarity, byDay, latency, topSources: top.map((t) => ({ ...t, source: labels.get(t.artifactId) })) };
  });
}

export interface QuestionsData {
  page: QuestionPage;
  sources: Map<string, SourceLabel>;
  settings: RetrievalSettings;
}

export async function loadQuestions(
  db: Database,
  workspaceId: string,
  options: { filter: QuestionFilter; cursor?: string | undefined; limit?: number },
): Promise<QuestionsData> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const [page, settings] = await Promise.all([listQuestions(tx, workspaceId, options), readRetrievalSettings(tx, workspaceId)]);
    const sources = await sourceLabels(tx, workspaceId, page.questions.flatMap((q) => q.retrieved.map((r) => r.artifactId)));
    return { page, sources, settings };
  });
}

export interface QuestionData {
  question: QuestionDetail;
  sources: Map<string, SourceLabel>;
  passages: Map<string, PassageInfo>;
}

/** undefined when the id is not a question of this workspace: the page answers 404 either way. */
export async function loadQuestion(db: Database, workspaceId: string, questionId: string): Promise<QuestionData | undefined> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const question = await getQuestion(tx, workspaceId, questionId);
    if (!question) return undefined;
    const [sources, passages] = await Promise.all([
      sourceLabels(tx, workspaceId, question.retrieved.map((r) => r.artifactId)),
      passagesById(tx, workspaceId, question.retrieved.map((r) => r.chunkId)),
    ]);
    return { question, sources, passages };
  });
}

export interface SettingsData {
  settings: RetrievalSettings;
  similarity: SimilarityBin[];
  /** Present when the page was asked to preview proposed values. */
  proposal?: SettingsParse;
  preview?: SettingsPreview;
}

export const SETTINGS_HISTOGRAM_DAYS = 30;

export async function loadSettings(
  db: Database,
  workspaceId: string,
  proposed?: { matchCount: unknown; minSimilarity: unknown },
): Promise<SettingsData> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const [settings, similarity] = await Promise.all([readRetrievalSettings(tx, workspaceId), similarityHistogram(tx, workspaceId, SETTINGS_HISTOGRAM_DAYS)]);
    if (!proposed) return { settings, similarity };
    const proposal = parseRetrievalSettings(proposed);
    const preview = proposal.ok ? await previewSettings(tx, workspaceId, settings, proposal.settings) : undefined;
    return { settings, similarity, proposal, ...(preview ? { preview } : {}) };
  });
}

/** Validates and saves; the caller shows the errors (per field) when it is not ok. */
export async function saveSettings(
  db: Database,
  workspaceId: string,
  input: { matchCount: unknown; minSimilarity: unknown },
): Promise<{ ok: true; before: RetrievalSettings; after: RetrievalSettings } | Extract<SettingsParse, { ok: false }>> {
  const parsed = parseRetrievalSettings(input);
  if (!parsed.ok) return parsed;
  return withWorkspace(db, workspaceId, async (tx) => {
    const before = await readRetrievalSettings(tx, workspaceId);
    const after = await updateRetrievalSettings(tx, workspaceId, parsed.settings);
    return { ok: true as const, before, after };
  });
}
