import { codeNamesOf } from './code-names.ts';
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

// "How much memory…", "How many tables…", "What share of a table…", "…by default?", "…out of the
// box?", "What is the maximum…": the asker wants a value, which reference documentation states in
// a sentence of its own, usually after the one describing the setting ("The default is 12.").
const VALUE = /\b(?:how\s+(?:much|many|long|big|large|small|often|high|low|far)\b|what\s+(?:share|percentage|fraction|proportion|size|value|limit)\b|defaults?\b|out\s+of\s+the\s+box\b|maximum\b|minimum\b|at\s+most\b|at\s+least\b|threshold\b)/u;

/** The question asks for an amount, a limit or a default value. */
export function asksForValue(question: string): boolean {
  return VALUE.test(normalise(question));
}

// "The default is 12.", "The default value is four megabytes (`4MB`).", "… (the default)",
// "This parameter defaults to `on`.", "If this value is -1 (the default), …".
const DEFAULT_STATEMENT = /\bthe\s+default\b|\bdefaults?\s+(?:to|is|value)\b|\bby\s+default\b/u;

/** A sentence that states a default value. */
export function statesDefault(sentence: string): boolean {
  return DEFAULT_STATEMENT.test(normalise(sentence));
}

// "What does the fast_mode argument do?", "the default of max_wal_size", "How do I set/change/
// enable X": the question takes a name as something that exists, whose meaning or value is asked.
const ABOUT_NAME = /\b(?:what\s+(?:does|do|is|are)|defaults?|settings?|parameters?|options?|flags?|arguments?|variables?|configuration|enable|disable|turn\s+(?:on|off)|change|set|means?|meaning)\b/u;
// "How do I add a --dry-run option?", "my order_total column", "a flag named --fast": a name the
// asker makes up for their own program or schema, which no manual writes.
const OWN_NAME = /\b(?:my|our|own|custom|add|adding|create|creating|define|defining|declare|make|making|named|called|rename)\b/u;

/**
 * The question names something of the asker's own: the names it writes as code may be made up by
 * them. The word that makes a name theirs comes before it ("add a --dry-run option", "my
 * order_total column"); after the last name it says what the name does ("the
 * MODEL_SOFT_DELETE_DEFAULT setting make delete() hide rows"), and the name is asked about as it is.
 */
export function namesAskersOwn(question: string): boolean {
  const text = normalise(question);
  const names = codeNamesOf(question);
  const end = names.length === 0 ? text.length : Math.max(...names.map((name) => text.lastIndexOf(name)));
  return OWN_NAME.test(text.slice(0, end));
}

/** The question asks what a name is, does or is set to, rather than naming something of the asker's own. */
export function asksAboutExistingName(question: string): boolean {
  return ABOUT_NAME.test(normalise(question)) && !namesAskersOwn(question);
}
