/**
 * Every tool's description has the same parts, in the same order, so an agent (and a reviewer of
 * the contract snapshot) finds them where it expects: what it is for, when to call it, what to
 * call instead, what it changes, whether that can be undone, and one call to copy.
 */
export interface ToolDescription {
  purpose: string;
  whenToUse: string;
  /** Must name the sibling tool to use instead. */
  notFor: string;
  sideEffects: string;
  reversibility: string;
  example: string;
}

export const DESCRIPTION_PARTS = ['Purpose:', 'When to use:', 'Not for:', 'Side effects:', 'Reversibility:', 'Example:'] as const;

export function describeTool(d: ToolDescription): string {
  return [
    `Purpose: ${d.purpose}`,
    `When to use: ${d.whenToUse}`,
    `Not for: ${d.notFor}`,
    `Side effects: ${d.sideEffects}`,
    `Reversibility: ${d.reversibility}`,
    `Example: ${d.example}`,
  ].join('\n');
}
