import { isUuid, type Queryable } from '@brain/db';
import { AppError } from '@brain/errors';
import { parseCited, parseLatency, parseRetrieved, type CitedPassage, type RetrievedPassage, type StageLatency } from '../telemetry.ts';
import { UNANSWERED } from '../window.ts';

export const QUESTION_FILTERS = ['all', 'unanswered', 'down'] as const;
export type QuestionFilter = (typeof QUESTION_FILTERS)[number];

export interface QuestionRow {
  id: string;
  question: string;
  /** The first 300 characters of the answer. */
  answerPreview: string | null;
  grounded: boolean;
  answerer: string;
  model: string | null;
  retrieved: RetrievedPassage[];
  cited: CitedPassage[];
  latency: StageLatency;
  trimmed: boolean;
  surface: string;
  feedback: 'up' | 'down' | null;
  createdAt: Date;
  /** What the answer was allowed to cite: everything (the operator), audience keys, or not recorded (older rows). */
  audience: { kind: 'everything' } | { kind: 'keys'; keys: string[]; everyone?: true } | null;
}

export interface QuestionPage {
  questions: QuestionRow[];
  /** How many questions match the filter, all time. */
  total: number;
  nextCursor: string | null;
}

// Whitelisted fragments: the filter never reaches SQL as text.
const WHERE: Record<QuestionFilter, string> = {
  all: 'true',
  unanswered: UNANSWERED,
  down: "q.feedback = 'down'",
};

// The daily rollup's column that counts each filter's questions.
const TOTAL: Record<QuestionFilter, string> = { all: 'questions', unanswered: 'unanswered', down: 'down' };

export const QUESTION_COLUMNS = `q.id::text, q.question, left(q.answer, 300) as answer_preview, q.grounded, q.answerer, q.model,
  q.retrieved, q.cited, q.latency_ms, q.trimmed, q.surface, q.feedback, q.created_at, q.audience`;

export interface QuestionDbRow extends Record<string, unknown> {
  id: string;
  question: string;
  answer_preview: string | null;
  grounded: boolean;
  answerer: string;
  model: string | null;
  retrieved: unknown;
  cited: unknown;
  latency_ms: unknown;
  trimmed: boolean;
  surface: string;
  feedback: 'up' | 'down' | null;
  created_at: Date | string;
  audience: unknown;
}

export function toQuestionRow(r: QuestionDbRow): QuestionRow {
  return {
    id: r.id,
    question: r.question,
    answerPreview: r.answer_preview,
    grounded: r.grounded,
    answerer: r.answerer,
    model: r.model,
    retrieved: parseRetrieved(r.retrieved),
    cited: parseCited(r.cited),
    latency: parseLatency(r.latency_ms),
    trimmed: r.trimmed,
    surface: r.surface,
    feedback: r.feedback,
    createdAt: new Date(r.created_at),
    audience: parseAudience(r.audience),
  };
}

function parseAudience(value: unknown): QuestionRow['audience'] {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as { kind?: unknown; keys?: unknown; everyone?: unknown } | null;
  if (v?.kind === 'everything') return { kind: 'everything' };
  if (v?.kind === 'keys' && Array.isArray(v.keys)) {
    const keys = v.keys.filter((k): k is string => typeof k === 'string');
    return v.everyone === true ? { kind: 'keys', keys, everyone: true } : { kind: 'keys', keys };
  }
  return null;
}

/**
 * Recent questions, newest first, keyset-paginated so pages stay stable while new questions
 * arrive. The cursor is the last row's id: the database compares its own microsecond timestamp,
 * which a cursor carrying a JavaScript Date (milliseconds) would round and so skip rows.
 * Run as the tenant: a cursor naming another workspace's row finds nothing.
 */
export async function listQuestions(
  tx: Queryable,
  workspaceId: string,
  options: { filter?: QuestionFilter; limit?: number; cursor?: string | undefined } = {},
): Promise<QuestionPage> {
  const filter = options.filter ?? 'all';
  const limit = Math.min(Math.max(options.limit ?? 25, 1), 100);
  const after = options.cursor ?? null;
  if (after !== null && !isUuid(after)) {
    throw new AppError({ code: 'CURSOR_INVALID', message: 'That page cursor is not valid.', nextStep: 'Start again from the first page.', httpStatus: 400 });
  }
  const [rows, [count]] = await Promise.all([
    tx.query<QuestionDbRow>(
      `select ${QUESTION_COLUMNS} from queries q
       where q.workspace_id = $1 and ${WHERE[filter]}
         and ($2::uuid is null or (q.created_at, q.id) < (select c.created_at, c.id from queries c where c.id = $2::uuid and c.workspace_id = $1))
       order by q.created_at desc, q.id desc
       limit $3`,
      [workspaceId, after, limit + 1],
    ),
    tx.query<{ n: number }>(`select coalesce(sum(d.${TOTAL[filter]}), 0)::int as n from query_day_stats d where d.workspace_id = $1`, [workspaceId]),
  ]);
  const questions = rows.slice(0, limit).map(toQuestionRow);
  return {
    questions,
    total: count?.n ?? 0,
    nextCursor: rows.length > limit ? (questions.at(-1)?.id ?? null) : null,
  };
}
