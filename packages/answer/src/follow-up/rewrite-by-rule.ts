import { normalise, STOPWORDS, termOf } from '../text/terms.ts';
import type { QuestionRewriter, Rewrite, RewriteInput } from './rewriter.ts';

const WORD = /[\p{L}\p{N}_]+/gu;
/**
 * Verbs a question asks with, not about: "How do I set the timeout?" is about the timeout. Left
 * out of what is carried, so the follow-up is not steered towards any passage that says "set".
 */
const ASKING_VERBS = new Set(['set', 'change', 'configure', 'make', 'find', 'know', 'tell', 'show', 'see', 'work', 'works', 'happen', 'happens', 'mean', 'means', 'ok', 'okay', 'thanks', 'thank']);
/** Words that point back at what was said before. */
const POINTING_BACK = new Set(['it', 'its', 'that', 'this', 'these', 'those', 'they', 'them', 'there', 'one', 'ones', 'same', 'else', 'instead', 'too', 'also', 'either']);
/** How a message that continues the conversation opens. */
const CONTINUING = /^\s*(and|but|also|so|then|plus|or|ok(ay)?|what about|how about|and if|what if)\b/i;
/** Fewer own topic words than this and a follow-up cannot stand alone. */
const FEW_TERMS = 3;

/** The informative words of a text, as written and in order, each once: no stop words, no asking verbs. */
function topicWords(text: string): { word: string; term: string }[] {
  const seen = new Set<string>();
  const out: { word: string; term: string }[] = [];
  for (const match of normalise(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length < 2 || STOPWORDS.has(word) || ASKING_VERBS.has(word) || POINTING_BACK.has(word)) continue;
    const term = termOf(word);
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ word, term });
  }
  return out;
}

/**
 * The deterministic rewrite, used when no chat model is configured (and when the model fails): a
 * follow-up that cannot stand alone — it opens like a continuation ("and…", "what about…"),
 * points back ("it", "that one"), or has fewer than three topic words of its own — carries the
 * previous question's topic words it lacks, in parentheses: "and what about the default?" after
 * "How do I set the request timeout?" becomes "and what about the default (request timeout)?".
 * A follow-up that stands alone is searched as written.
 */
export function rewriteByRule(input: Pick<RewriteInput, 'earlier' | 'message'>): Rewrite {
  const message = input.message.trim();
  const previous = input.earlier.at(-1)?.trim();
  if (!previous) return { question: message, by: 'unchanged' };
  const own = topicWords(message);
  const words = normalise(message).match(WORD) ?? [];
  const dependent = CONTINUING.test(message) || words.some((w) => POINTING_BACK.has(w)) || own.length < FEW_TERMS;
  if (!dependent) return { question: message, by: 'unchanged' };
  const have = new Set(own.map((w) => w.term));
  const carried = topicWords(previous).filter((w) => !have.has(w.term)).map((w) => w.word);
  if (carried.length === 0) return { question: message, by: 'unchanged' };
  const end = /[?？]\s*$/.exec(message);
  const body = end ? message.slice(0, end.index).trimEnd() : message;
  return { question: `${body} (${carried.join(' ')})${end ? '?' : ''}`, by: 'rule' };
}

export function createRuleRewriter(): QuestionRewriter {
  return { kind: 'rule', rewrite: async (input) => rewriteByRule(input) };
}
