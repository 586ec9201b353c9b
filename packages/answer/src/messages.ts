/** Nothing retrieved passed the workspace's similarity floor. Exact wording: surfaces match on it. */
export const NO_SOURCES_MESSAGE = 'No grounded sources found. Try `/save` first.';

/**
 * Sources were retrieved, but the answer cited none of them validly (the model declined, or every
 * citation it gave was invalid): uncited text never reaches the user.
 */
export const NOT_IN_SOURCES_MESSAGE =
  "I couldn't find an answer to that in this server's saved sources. Try rephrasing, or `/save` a source that covers it.";

/** The first line of every extractive answer, so nobody mistakes quotations for a composed reply. */
export const EXTRACTIVE_LABEL =
  'Extractive answer (no language model is configured, so these are the most relevant sentences from your saved sources, quoted as written):';

/** What the chat model is told to say when the passages do not answer the question. */
export const MODEL_DECLINE = "I don't know from the saved sources.";

/**
 * The question names something no saved source contains (a product, a setting, a function): say
 * so, naming it, rather than quote something loosely related. Always starts "Nothing saved covers".
 */
export function nothingCovers(names: readonly string[]): string {
  const listed = names.slice(0, 3).map((n) => `“${n}”`);
  const joined = listed.length > 1 ? `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : (listed[0] ?? '');
  return `Nothing saved covers ${joined}. Try rephrasing, or \`/save\` a source about it.`;
}
