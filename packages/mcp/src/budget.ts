/**
 * Characters a whole tool result may carry: its structuredContent and its text block together.
 * An agent's context is the scarce resource: ten passages of a long source must not crowd out
 * the conversation. About 5,000 tokens.
 *
 * Both blocks count because clients differ in what they hand the model: some pass the text
 * block only, some the structured result, some (and the Inspector, which prints the whole
 * result) both. So every result carries both, as the specification asks, and the budget is
 * spent on them together rather than doubled by them.
 */
export const DEFAULT_BUDGET_CHARS = 20_000;

/** What a result keeps back from its items' budget for its note and frame, which both blocks carry (a note runs to about 400 characters). */
export function noteAllowance(budget: number): number {
  return Math.min(1_000, Math.floor(budget / 2));
}

/** What a result costs against the budget: its structuredContent's JSON and its text blocks. */
export function resultSize(result: { structuredContent?: unknown; content: { type: string; text?: string }[] }): number {
  const text = result.content.reduce((n, c) => n + (c.type === 'text' ? (c.text?.length ?? 0) : 0), 0);
  return (result.structuredContent === undefined ? 0 : JSON.stringify(result.structuredContent).length) + text;
}

export interface Budgeted<T> {
  kept: T[];
  /** How many items were left out at the end. */
  omitted: number;
  /** Whether the first item itself had to be shortened to fit. */
  shortened: boolean;
}

/**
 * Keeps items, in order, while their size fits in `budget` characters: by default their JSON;
 * a tool that also renders each item as text passes `sizeOf` counting both. When even the
 * first does not fit, `shorten` cuts it down to the budget (the caller knows which field is the
 * long one): a shortened passage helps an agent more than none.
 */
export function fitToBudget<T>(
  items: readonly T[],
  budget: number,
  shorten?: (item: T, chars: number) => T,
  sizeOf: (item: T) => number = (item) => JSON.stringify(item).length,
): Budgeted<T> {
  const kept: T[] = [];
  let used = 0;
  let shortened = false;
  for (const item of items) {
    const size = sizeOf(item);
    if (used + size <= budget) {
      kept.push(item);
      used += size;
      continue;
    }
    if (kept.length === 0 && shorten) {
      kept.push(shorten(item, budget));
      shortened = true;
    }
    break;
  }
  return { kept, omitted: items.length - kept.length, shortened };
}

/** Cuts text to `max` characters on a word boundary, marking the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.8 ? cut.slice(0, space) : cut}…`;
}
