import { performance } from 'node:perf_hooks';
import { estimateTokens } from '@brain/chunking';
import { withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { coerceError, type AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { citedMessage } from './citations/message-links.ts';
import { validateCitations } from './citations/validate-citations.ts';
import { applyContextBudget, DEFAULT_CONTEXT_TOKENS, type BudgetResult, type TokenEstimator } from './context-budget.ts';
import { withDeadline } from './deadline.ts';
import * as errors from './errors.ts';
import { missingTerms } from './coverage-gate.ts';
import { questionRelevance } from './text/question-relevance.ts';
import { NO_SOURCES_MESSAGE, NOT_IN_SOURCES_MESSAGE, nothingCovers } from './messages.ts';
import { insertQueryRecord, type QueryRecord, type RetrievedEntry, type StageLatency } from './queries/insert-query-record.ts';
import { loadMessageSpans } from './queries/load-message-spans.ts';
import { namedPassages } from './named-passages.ts';
import { embedQuestion, passagesOf, search } from './retrieve.ts';
import { RUNNERS_UP_READ, withAgreedRunnersUp } from './agreed-runners-up.ts';
import { sourceSiblings, withSiblings } from './source-siblings.ts';
import type { Answerer, AskResult, Citation, ContextMatch, QuerySurface } from './types.ts';

export interface StageTimeouts {
  embedMs: number;
  searchMs: number;
  generateMs: number;
}

export const DEFAULT_TIMEOUTS: StageTimeouts = { embedMs: 15_000, searchMs: 10_000, generateMs: 30_000 };

export interface AskDeps {
  db: Database;
  /** The same embedder (and model) ingestion used; a different vector space retrieves noise. */
  embedder: Embedder;
  answerer: Answerer;
  logger: Logger;
  /** Milliseconds from an arbitrary origin (default performance.now): stage latencies. */
  clock?: () => number;
  timeouts?: Partial<StageTimeouts>;
  /** Tokens of passages the answerer may see (default 2,000). */
  contextTokens?: number;
  estimateTokens?: TokenEstimator;
}

export interface AskInput {
  workspaceId: string;
  question: string;
  /** The audiences this answer may cite (a Discord channel's, an asker's own, or the operator's everything). */
  audience: AudienceFilter;
  surface: QuerySurface;
  askedBy?: string | null;
  interactionId?: string | null;
  /** The caller gave up (a Discord interaction expired): every stage stops. */
  signal?: AbortSignal;
  /**
   * A wider audience (the asker's own permissions) to try once when this one finds nothing good
   * enough: if it would, the result says only that a private answer is available. Called lazily,
   * so a strong first search costs nothing more.
   */
  privateAudience?: () => Promise<AudienceFilter>;
}

/**
 * Answers a question from one workspace's saved sources, or says honestly that none were found.
 * embed → search (match_artifacts, hybrid, with the workspace's k and similarity floor, and the
 * runners-up past it that both legs agree on) → context budget → answerer → citation validation →
 * one queries row. Failures are AppErrors with codes; a failure after the question was accepted
 * still records its row (with error_code), and the error's details carry that row's queryId.
 */
export async function ask(deps: AskDeps, input: AskInput): Promise<AskResult> {
  const invalid = errors.questionError(input.question);
  if (invalid) throw invalid;
  const question = input.question.trim();
  const clock = deps.clock ?? (() => performance.now());
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  const started = clock();
  const latency: Omit<StageLatency, 'total'> = {};
  const timed = async <T>(stage: keyof typeof latency, run: () => Promise<T>): Promise<T> => {
    const t0 = clock();
    try {
      return await run();
    } finally {
      latency[stage] = round(clock() - t0);
    }
  };

  const record: Omit<QueryRecord, 'latencyMs'> = {
    workspaceId: input.workspaceId,
    question,
    answer: null,
    grounded: false,
    answerer: 'none',
    model: null,
    embeddingModel: deps.embedder.model,
    retrieved: [],
    cited: [],
    trimmed: false,
    surface: input.surface,
    askedBy: input.askedBy ?? null,
    interactionId: input.interactionId ?? null,
    errorCode: null,
    audience: input.audience,
    privateHintShown: false,
  };
  const save = (fields: Partial<QueryRecord>) =>
    withWorkspace(deps.db, input.workspaceId, (tx) =>
      insertQueryRecord(tx, { ...record, ...fields, latencyMs: { ...latency, total: round(clock() - started) } }),
    );

  let stage: 'embed' | 'search' | 'generate' = 'embed';
  try {
    const vector = await timed('embed', () => embedQuestion(deps.embedder, question, timeouts.embedMs, input.signal));
    stage = 'search';
    const found = await timed('search', () => search(deps.db, input.workspaceId, input.audience, vector, question, timeouts.searchMs, { runnersUp: RUNNERS_UP_READ }));
    const { termStats } = found;
    // The k, with a runner-up that both legs rank near their top in the place of a weaker passage.
    const matches = withAgreedRunnersUp(found.matches, found.runnersUp);

    // Only a weak first search pays for the one extra search; its outcome is a single boolean.
    const privateHint = () => privateAnswerAvailable(deps, input, vector, question, matches, timeouts.searchMs);

    if (matches.length === 0) {
      const hint = await privateHint();
      const queryId = await save({ answer: NO_SOURCES_MESSAGE, privateHintShown: hint });
      deps.logger.info({ queryId, workspaceId: input.workspaceId, grounded: false, retrieved: 0, privateHint: hint }, 'ask: nothing retrieved');
      return { answer: NO_SOURCES_MESSAGE, grounded: false, citations: [], queryId, trimmed: false, answerer: 'none', model: null, privateAnswerAvailable: hint };
    }

    // What the answerer reads: the retrieved passages with the best sources' passages that define
    // what it names or state it better (withSiblings says where), then those holding a rare name the
    // question asks about that none of these holds.
    const context: ContextMatch[] = await timed('siblings', async () => {
      const scope = { workspaceId: input.workspaceId, audience: input.audience, question, termStats };
      const read = withSiblings(matches, await sourceSiblings(deps.db, { ...scope, matches }));
      return [...read, ...(await namedPassages(deps.db, { ...scope, context: read }))];
    });
    const budget = applyContextBudget(passagesOf(context), {
      maxTokens: deps.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
      estimate: deps.estimateTokens ?? estimateTokens,
      relevance: questionRelevance(question, termStats),
    });
    record.retrieved = retrievedEntries(context, budget);
    record.trimmed = budget.trimmed;

    // Before any answerer: when what the question asks about is in nothing saved, whatever was
    // retrieved is about something else, and a model shown it could be led astray.
    const missing = missingTerms(question, budget.passages, termStats);
    if (missing.length > 0) {
      const answer = nothingCovers(missing);
      const hint = await privateHint();
      const queryId = await save({ answer, privateHintShown: hint });
      deps.logger.info(
        { queryId, workspaceId: input.workspaceId, grounded: false, retrieved: matches.length, missing: missing.length, privateHint: hint },
        'ask: what the question asks about is in no saved source',
      );
      return { answer, grounded: false, citations: [], queryId, trimmed: budget.trimmed, answerer: 'none', model: null, privateAnswerAvailable: hint };
    }
    record.answerer = deps.answerer.kind;
    record.model = deps.answerer.model;

    stage = 'generate';
    const output = await timed('generate', () =>
      withDeadline(
        timeouts.generateMs,
        (signal) => deps.answerer.answer({ question, passages: budget.passages, termStats, signal }),
        () => errors.answerTimeout(deps.answerer.model, timeouts.generateMs),
        input.signal,
      ),
    );
    record.model = output.model;

    const extractive = output.kind === 'extractive';
    const check = validateCitations(output.text, budget.passages, { allowLinksInPassages: extractive, quotedLines: extractive });
    if (check.removedMarkers.length > 0 || check.removedQuotes.length > 0) {
      deps.logger.warn(
        { workspaceId: input.workspaceId, removedMarkers: check.removedMarkers, removedQuotes: check.removedQuotes.length },
        'ask: the answer cited passages it was not given, or misquoted them; removed',
      );
    }
    const citations = check.cited.flatMap((c): Citation[] => {
      const match = context[c.passageN - 1];
      return match ? [citationOf(c.n, c.passageN, match)] : [];
    });
    await linkCitedMessages(deps.db, input.workspaceId, check.text, citations, context);
    const grounded = citations.length > 0;
    const answer = grounded ? check.text : NOT_IN_SOURCES_MESSAGE;
    const hint = grounded ? false : await privateHint();
    const queryId = await save({
      answer,
      grounded,
      privateHintShown: hint,
      cited: citations.map((c) => ({ n: c.n, chunk_id: c.chunkId, artifact_id: c.artifactId, rank: c.rank, ...(c.messageId ? { message_id: c.messageId, url: c.url } : {}) })),
    });
    deps.logger.info(
      { queryId, workspaceId: input.workspaceId, grounded, retrieved: matches.length, cited: citations.length, trimmed: budget.trimmed, latency, privateHint: hint },
      'ask: answered',
    );
    return { answer, grounded, citations, queryId, trimmed: budget.trimmed, answerer: output.kind, model: output.model, privateAnswerAvailable: hint };
  } catch (caught) {
    const error = coerceError(caught);
    if (error.code === 'WORKSPACE_NOT_FOUND') throw error;
    const queryId = await save({ errorCode: error.code }).catch((recordError: unknown) => {
      deps.logger.error({ err: recordError, workspaceId: input.workspaceId }, 'ask: could not record the failed ask');
      return undefined;
    });
    deps.logger.warn({ queryId, workspaceId: input.workspaceId, stage, code: error.code, err: error }, 'ask: failed');
    throw withQueryId(error, queryId);
  }
}

/**
 * Would the asker's own audience answer what this reply's could not? One more search, and true
 * only when it finds a source the first could not cite and the question's words are covered. Its
 * result is one boolean: nothing of what it found (title, count, channel, wording) leaves here.
 */
async function privateAnswerAvailable(
  deps: AskDeps,
  input: AskInput,
  vector: number[],
  question: string,
  shown: readonly ContextMatch[],
  searchMs: number,
): Promise<boolean> {
  if (!input.privateAudience) return false;
  try {
    const wider = await input.privateAudience();
    if (sameAudience(wider, input.audience)) return false;
    const { matches, termStats } = await search(deps.db, input.workspaceId, wider, vector, question, searchMs);
    const seen = new Set(shown.map((m) => m.artifactId));
    if (!matches.some((m) => !seen.has(m.artifactId))) return false;
    return missingTerms(question, passagesOf(matches), termStats).length === 0;
  } catch (error) {
    deps.logger.warn({ err: error, workspaceId: input.workspaceId }, 'ask: the private-answer check failed; no hint given');
    return false;
  }
}

function sameAudience(a: AudienceFilter, b: AudienceFilter): boolean {
  if (a.kind !== b.kind) return false;
  return a.kind === 'everything' || (b.kind === 'keys' && a.keys.length === b.keys.length && a.keys.every((k) => b.keys.includes(k)));
}

function retrievedEntries(matches: readonly ContextMatch[], budget: BudgetResult): RetrievedEntry[] {
  return matches.map((m, i) => ({
    chunk_id: m.chunkId,
    artifact_id: m.artifactId,
    similarity: m.similarity,
    rank: i + 1,
    vector_rank: m.vectorRank,
    keyword_rank: m.keywordRank,
    score: m.score,
    matched_by: m.matchedBy,
    in_context: !budget.dropped.includes(i + 1),
    truncated: budget.cut.includes(i + 1),
  }));
}

function citationOf(n: number, rank: number, m: ContextMatch): Citation {
  return {
    n,
    artifactId: m.artifactId,
    chunkId: m.chunkId,
    title: m.title,
    url: m.url,
    heading: m.heading,
    similarity: m.similarity,
    matchedBy: m.matchedBy,
    rank,
  };
}

/**
 * A citation of a conversation passage (a saved Discord thread) opens the message holding what the
 * answer took from it, not the top of the thread: its url becomes that message's jump link.
 */
async function linkCitedMessages(db: Database, workspaceId: string, answer: string, citations: Citation[], matches: readonly ContextMatch[]): Promise<void> {
  if (citations.length === 0) return;
  const spans = await withWorkspace(db, workspaceId, (tx) => loadMessageSpans(tx, citations.map((c) => c.chunkId)));
  if (spans.size === 0) return;
  for (const citation of citations) {
    const content = matches[citation.rank - 1]?.content;
    const own = spans.get(citation.chunkId);
    if (!own || content === undefined) continue;
    const message = citedMessage(answer, citation.n, content, own);
    if (!message) continue;
    citation.url = message.url;
    citation.messageId = message.message_id;
  }
}

function withQueryId(error: AppError, queryId: string | undefined): AppError {
  if (queryId) Object.assign(error, { details: { ...error.details, queryId } });
  return error;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
