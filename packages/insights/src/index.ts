import type {} from './error-codes.ts';
export { WINDOW_DAYS, DEFAULT_WINDOW_DAYS, parseWindowDays, type WindowDays } from './window.ts';
export type { CitedPassage, RetrievedPassage, StageLatency } from './telemetry.ts';
export { overviewFigures, type OverviewFigures } from './queries/overview.ts';
export { QUESTION_FILTERS, listQuestions, type QuestionFilter, type QuestionPage, type QuestionRow } from './queries/questions.ts';
export { getQuestion, type QuestionDetail } from './queries/question-detail.ts';
export { passagesById, type PassageInfo } from './queries/passages.ts';
export { sourceLabels, type SourceLabel } from './queries/source-labels.ts';
export { SIMILARITY_BINS, similarityHistogram, type SimilarityBin } from './queries/similarity-histogram.ts';
export { unansweredByDay, type DayCount } from './queries/unanswered-by-day.ts';
export { LATENCY_SAMPLE, LATENCY_STAGES, latencyPercentiles, type LatencyStage, type StagePercentiles } from './queries/latency-percentiles.ts';
export { topSources, type TopSource } from './queries/top-sources.ts';
export {
  MATCH_COUNT_RANGE,
  MIN_SIMILARITY_RANGE,
  parseRetrievalSettings,
  readRetrievalSettings,
  updateRetrievalSettings,
  type RetrievalSettings,
  type SettingsParse,
} from './queries/retrieval-settings.ts';
export { previewSettings, type PreviewQuestion, type SettingsPreview } from './queries/settings-preview.ts';
export {
  SETTINGS_HISTOGRAM_DAYS,
  loadOverview,
  loadQuestion,
  loadQuestions,
  loadSettings,
  saveSettings,
  type OverviewData,
  type QuestionData,
  type QuestionsData,
  type SettingsData,
} from './pages.ts';
