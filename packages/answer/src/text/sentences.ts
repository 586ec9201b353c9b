/** A sentence (or a list item, or a table row) of a passage, by its offsets in the passage. */
export interface SentenceSpan {
  start: number;
  end: number;
  /** `content.slice(start, end)`: the passage's own text, never rewritten. */
  text: string;
  /** The nearest heading line above it inside the passage ("bodyLimit"), or null. */
  heading: string | null;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const HTML_ONLY = /^\s*(<\/?[a-zA-Z][^>]*>\s*)+$/;
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/;
const QUOTE_MARKER = /^\s{0,3}>\s?/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
// A sentence ends at . ! or ? (closing quotes or brackets may follow), then whitespace, then
// something that can start a sentence.
const BOUNDARY = /[.!?]["'”’)\]]*\s+(?=["'“‘`([*_]?[\p{Lu}\p{N}])/gu;
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Mr|Mrs|Ms|Dr|No|Fig|al)|\b\p{L})\.$/u;

/**
 * Splits a passage into the spans an extractive answer may quote: sentences of paragraphs,
 * list items, table rows. Headings, code blocks, table rules and bare HTML tags are skipped:
 * they are not statements. Offsets index into `content`, so every span is a verbatim substring.
 */
export function sentenceSpans(content: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  for (const block of blocksOf(content)) {
    let from = block.start;
    const text = content.slice(block.start, block.end);
    for (const m of text.matchAll(BOUNDARY)) {
      const cut = block.start + m.index + m[0].trimEnd().length;
      if (ABBREVIATION.test(content.slice(from, block.start + m.index + 1))) continue;
      pushSpan(content, spans, from, cut, block.heading);
      from = block.start + m.index + m[0].length;
    }
    pushSpan(content, spans, from, block.end, block.heading);
  }
  return spans;
}

interface Block {
  start: number;
  end: number;
  heading: string | null;
}

/** Paragraphs, list items, quotes and table rows, outside code fences, as [start, end) ranges. */
function blocksOf(content: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  let inFence = false;
  let heading: string | null = null;
  let offset = 0;
  const close = () => {
    if (open) blocks.push(open);
    open = undefined;
  };
  for (const line of content.split('\n')) {
    const lineStart = offset;
    const lineEnd = offset + line.length;
    offset = lineEnd + 1;
    if (FENCE.test(line)) {
      close();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (HEADING.test(line)) {
      close();
      heading = line.replace(/^\s*#+\s*/, '').replace(/[`*]/g, '').trim() || null;
      continue;
    }
    if (line.trim() === '' || TABLE_RULE.test(line) || HTML_ONLY.test(line)) {
      close();
      continue;
    }
    const marker = LIST_MARKER.exec(line);
    if (marker || TABLE_ROW.test(line)) {
      close();
      open = { start: lineStart + (marker ? marker[0].length : 0), end: lineEnd, heading };
      if (!marker) close(); // a table row stands alone
      continue;
    }
    const quote = open ? undefined : QUOTE_MARKER.exec(line);
    if (open) open.end = lineEnd;
    else if (quote) open = { start: lineStart + quote[0].length, end: lineEnd, heading };
    else open = { start: lineStart + (line.length - line.trimStart().length), end: lineEnd, heading };
  }
  close();
  return blocks;
}

function pushSpan(content: string, spans: SentenceSpan[], start: number, end: number, heading: string | null): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(content[s] ?? '')) s++;
  while (e > s && /\s/.test(content[e - 1] ?? '')) e--;
  if (e - s < 2 || !/[\p{L}\p{N}]/u.test(content.slice(s, e))) return;
  spans.push({ start: s, end: e, text: content.slice(s, e), heading });
}

/**
 * Line breaks and runs of spaces inside a sentence become one space, and so do the `>` that
 * continue a wrapped block quote: the sentence reads as written, without its line wrapping.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\n[ \t]{0,3}>[ \t]?/g, ' ').replace(/\s+/g, ' ').trim();
}
