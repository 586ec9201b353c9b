/** How a follow-up became the question that was searched. */
export type RewrittenBy = 'llm' | 'rule' | 'unchanged';

export interface RewriteInput {
  /** What was asked earlier in the thread, oldest first (each already stand-alone). */
  earlier: readonly string[];
  /** The follow-up as written, the bot's mention taken out. */
  message: string;
  signal?: AbortSignal | undefined;
}

export interface Rewrite {
  question: string;
  by: RewrittenBy;
  /** Why the rule was used instead of the configured model (its failure), for the log and the record. */
  fallbackReason?: string | undefined;
}

/** Turns a follow-up ("and what about the default?") into a question that stands alone. */
export interface QuestionRewriter {
  kind: 'llm' | 'rule';
  rewrite(input: RewriteInput): Promise<Rewrite>;
}
