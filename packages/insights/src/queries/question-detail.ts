import { isUuid, type Queryable } from '@brain/db';
import { QUESTION_COLUMNS, toQuestionRow, type QuestionDbRow, type QuestionRow } from './questions.ts';

export interface QuestionDetail extends QuestionRow {
  answer: string | null;
  askedBy: string | null;
  embeddingModel: string | null;
}

/** One question with its whole answer; undefined when it is not this workspace's (or not a question id). */
export async function getQuestion(tx: Queryable, workspaceId: string, questionId: string): Promise<QuestionDetail | undefined> {
  if (!isUuid(questionId)) return undefined;
  const [row] = await tx.query<QuestionDbRow & { answer: string | null; asked_by: string | null; embedding_model: string | null }>(
    `select ${QUESTION_COLUMNS}, q.answer, q.asked_by, q.embedding_model
     from queries q where q.workspace_id = $1 and q.id = $2`,
    [workspaceId, questionId],
  );
  if (!row) return undefined;
  return { ...toQuestionRow(row), answer: row.answer, askedBy: row.asked_by, embeddingModel: row.embedding_model };
}
