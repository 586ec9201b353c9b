import { terms } from '../text/terms.ts';
import { containsQuote } from './quotes.ts';

/** A range of a passage that comes from one message of a conversation (chunks.message_spans). */
export interface MessageSpan {
  start: number;
  end: number;
  message_id: string;
  url: string;
}

const MARKERS = /\[\d+\]/g;
// After . ! or ? (closing quotes and the sentence's own markers may follow), before the next sentence.
const SENTENCE_BREAK = /(?<=[.!?]["'”’)]*(?:\s*\[\d+\])*)\s+(?=[^\s[])/;

/**
 * The message of a conversation passage that holds what an answer took from it as `[n]`. First the
 * message containing a statement citing `[n]` word for word (an extractive answer quotes; a chat
 * model sometimes does), else the message sharing the most of those statements' terms (a chat
 * model paraphrases). Works on the stored text, whatever sentence the answerer chose. Undefined
 * when the passage has no spans; its first message when nothing matches at all.
 */
export function citedMessage(answer: string, n: number, content: string, spans: readonly MessageSpan[]): MessageSpan | undefined {
  if (spans.length === 0) return undefined;
  const marker = `[${n}]`;
  const statements = statementsOf(answer).filter((s) => s.includes(marker)).map(clean).filter((s) => s !== '');
  const texts = spans.map((s) => content.slice(s.start, s.end));

  for (const statement of statements) {
    const at = texts.findIndex((text) => containsQuote(text, statement));
    if (at >= 0) return spans[at];
  }

  const wanted = statements.map((s) => new Set(terms(s)));
  let best = 0;
  let bestScore = 0;
  for (const [i, text] of texts.entries()) {
    const have = new Set(terms(text));
    let score = 0;
    for (const set of wanted) {
      if (set.size === 0) continue;
      let hits = 0;
      for (const t of set) if (have.has(t)) hits++;
      score += hits / set.size;
    }
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return spans[best];
}

/** Lines, and the sentences of each line: the unit an answer attaches a marker to. */
function statementsOf(answer: string): string[] {
  return answer.split('\n').flatMap((line) => line.split(SENTENCE_BREAK));
}

/** Without quote markers, list bullets, citation markers and a display ellipsis. */
function clean(statement: string): string {
  return statement
    .replace(/^\s*(?:>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
    .replace(MARKERS, '')
    .replace(/\s*…\s*$/, '')
    .trim();
}
