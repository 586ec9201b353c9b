/** Embed accent colours: one meaning each, so a glance tells an answer from a warning. */
export const COLORS = {
  answer: 0x5865f2,
  sources: 0x4f545c,
  saved: 0x3ba55c,
  failed: 0xed4245,
  neutral: 0x99aab5,
} as const;
