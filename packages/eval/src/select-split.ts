import type { EvalQuestion, Split, SplitSelection } from './types.ts';

/** The questions of one half, or all of them. A question without a split belongs to no half. */
export function selectSplit<Q extends Pick<EvalQuestion, 'split'>>(questions: readonly Q[], split: SplitSelection): Q[] {
  return split === 'all' ? [...questions] : questions.filter((q) => q.split === split);
}

/**
 * The groups a report breaks its figures into: the selection itself, and with "all" each half
 * that has questions, so one run shows the test half beside the tune half.
 */
export function splitGroups(selection: SplitSelection, present: readonly (Split | null)[]): SplitSelection[] {
  if (selection !== 'all') return [selection];
  return ['all', ...(['tune', 'test'] as const).filter((s) => present.includes(s))];
}

export function inGroup(split: Split | null, group: SplitSelection): boolean {
  return group === 'all' || split === group;
}
