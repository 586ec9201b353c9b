import { normalise, termOf } from './terms.ts';

// "How do I…", "How can we…", "How to…", "Is there a way to…", "What should I call/use…",
// "Which function…": the asker wants a means to an end, and reference documentation answers with
// an API whose description opens with that action ("Split the string s using shell-like syntax.").
const TASK = /\b(?:how\s+(?:do|can|could|should|would|to)\b|is\s+there\s+(?:an?\s+)?(?:\w+\s+)?(?:way|function|method|option)\b|what\s+(?:should|do|can)\s+(?:i|we)\s+(?:call|use|pass|run)\b|which\s+(?:function|method|class|module|option|setting)\b)/u;

/** The question asks how to do something, rather than what something is or says. */
export function asksForMeans(question: string): boolean {
  return TASK.test(normalise(question));
}

/** The comparable form of a sentence's first word ("Insert x in a in sorted order." → "insert"). */
export function leadingTerm(sentence: string): string | undefined {
  const first = /[\p{L}][\p{L}\p{N}_]*/u.exec(normalise(sentence))?.[0];
  return first && first.length > 1 ? termOf(first) : undefined;
}
