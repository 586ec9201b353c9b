/** A verbatim piece of a passage, by its offsets in the passage. */
export interface TextRange {
  start: number;
  end: number;
  /** `content.slice(start, end)`: the passage's own text, never rewritten. */
  text: string;
}

/** A sentence (or a list item, or a table row) of a passage. */
export interface SentenceSpan extends TextRange {
  /** The nearest heading line above it inside the passage ("bodyLimit"), or null. */
  heading: string | null;
  /**
   * The label it sits under, when the page names what the paragraphs below describe on a line of
   * its own (a `<dt>` term such as "maintenance_work_mem (integer)", a function's signature), or
   * the heading line itself; null above the first heading or label.
   */
  label: TextRange | null;
  /** Which paragraph, list item or table row of the passage it belongs to (0, 1, 2 …). */
  block: number;
  kind: 'sentence' | 'item' | 'row';
  /**
   * What it cannot be read without: a table row's header row, a list item's lead-in sentence
   * ("The accepted values are:"). Null when there is none, or for the header row itself.
   */
  lead: TextRange | null;
  /**
   * The fenced code block right after this sentence, when it ends its paragraph and announces
   * the code ("… as default values for fields:") or runs on into it, fences included; null otherwise.
   */
  code: TextRange | null;
  /**
   * The fenced code block right after the paragraph this sentence ends, whether or not the
   * sentence announces it ("PowerShell uses different syntax to set environment variables."
   * above `$env:DEBUG = "*,-not_this"`); null otherwise.
   */
  codeBelow: TextRange | null;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const HTML_ONLY = /^\s*(<\/?[a-zA-Z][^>]*>\s*)+$/;
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/;
const QUOTE_MARKER = /^\s{0,3}>\s?/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
// HTML tables arrive as `cell | cell` lines (one per row), with no outer pipes.
const CELL_ROW = /\S\s\|\s\S/;
// A line of its own that names what follows: no sentence end, no "key: value", not too long.
const LABEL_MAX_CHARS = 200;
const NOT_A_LABEL = /(?:[.!?:;,]["'”’)\]]*|:\s.*)$|:\s/;
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
  let lastSentence: TextRange | null = null;
  let listLead: TextRange | null = null;
  let header: TextRange | null = null;
  let previous: Block | undefined;
  for (const [index, block] of blocksOf(content).entries()) {
    const adjacent = previous !== undefined && previous.kind === block.kind && previous.gapFree(block);
    // A lead-in belongs to its own section: the sentence above a heading introduces nothing below it.
    if (previous && previous.label !== block.label) lastSentence = null;
    if (block.kind === 'item' && !(adjacent && previous?.kind === 'item')) listLead = lastSentence;
    if (block.kind === 'row' && !adjacent) header = null;
    const lead = block.kind === 'item' ? listLead : block.kind === 'row' ? header : null;
    const before = spans.length;
    let from = block.start;
    const text = content.slice(block.start, block.end);
    for (const m of block.kind === 'row' ? [] : text.matchAll(BOUNDARY)) {
      const cut = block.start + m.index + m[0].trimEnd().length;
      if (ABBREVIATION.test(content.slice(from, block.start + m.index + 1))) continue;
      pushSpan(content, spans, from, cut, block, index, lead);
      from = block.start + m.index + m[0].length;
    }
    pushSpan(content, spans, from, block.end, block, index, lead);
    const added = spans.slice(before);
    // A pipe table names its header by the rule under it; a passage cut from the middle of a
    // table starts with a data row, which must stay a fact. Rows of an HTML table have no rule,
    // and their first row is the header.
    if (block.kind === 'row' && header === null && (block.ruleBelow || !block.piped)) header = added[0] ?? null;
    if (block.kind === 'sentence') lastSentence = added.at(-1) ?? lastSentence;
    else if (block.kind === 'row') lastSentence = null;
    previous = block;
  }
  // A sentence announces the code after it with a colon, or runs on into it unfinished ("…returns a
  // command tag of the form" above `UPDATE count`).
  for (const span of spans) {
    const below = codeAfter(content, span.end);
    span.codeBelow = span.kind === 'sentence' ? below : null;
    span.code = /:\s*$/.test(span.text) || (span.kind === 'sentence' && !ENDS_SENTENCE.test(span.text)) ? below : null;
  }
  return spans;
}

const ENDS_SENTENCE = /[.!?]["'”’)\]]*\s*$/;
// Blank lines may part them, and lines of bare symbols: what is left of a page's tabs for one
// command in two shells (Django's "Linux/macOS" and "Windows" tabs leave "/" between icon glyphs).
const CODE_AFTER = /^[ \t]*\n(?:[^\p{L}\p{N}\n`~]*\n)*([ \t]*(```|~~~)[^\n]*\n[\s\S]*?\n[ \t]*\2[ \t]*)(?:\n|$)/u;

/** The fenced block that starts on the next non-blank line after `at`, if any. */
function codeAfter(content: string, at: number): TextRange | null {
  const m = CODE_AFTER.exec(content.slice(at));
  if (!m?.[1]) return null;
  const start = at + m[0].indexOf(m[1]);
  return { start, end: start + m[1].length, text: m[1] };
}

interface Block {
  start: number;
  end: number;
  heading: string | null;
  label: TextRange | null;
  kind: SentenceSpan['kind'];
  /** A table row written with outer pipes (markdown), and whether a rule line follows it. */
  piped?: boolean;
  ruleBelow?: boolean;
  /** True when `next` follows this block on the very next line (the same list or table). */
  gapFree(next: Block): boolean;
}

/** Paragraphs, list items, quotes and table rows, outside code fences, as [start, end) ranges. */
function blocksOf(content: string): Block[] {
  const blocks: Block[] = [];
  let open: Omit<Block, 'gapFree'> | undefined;
  let inFence = false;
  let heading: string | null = null;
  let label: TextRange | null = null;
  let offset = 0;
  const lines = content.split('\n');
  const lineStarts: number[] = [];
  const close = () => {
    if (!open) return;
    const block = open;
    const endLine = lineIndexAt(block.end);
    // A table's rule line keeps its header row and the rows below it one table.
    const skip = TABLE_RULE.test(lines[endLine + 1] ?? '') ? 2 : 1;
    blocks.push({ ...block, gapFree: (next) => lineIndexAt(next.start) === endLine + skip });
    open = undefined;
  };
  const lineIndexAt = (at: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  for (const [i, line] of lines.entries()) {
    const lineStart = lineStarts[i] ?? 0;
    const lineEnd = lineStart + line.length;
    if (FENCE.test(line)) {
      close();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (HEADING.test(line)) {
      close();
      heading = line.replace(/^\s*#+\s*/, '').replace(/[`*]/g, '').trim() || null;
      const at = lineStart + (/^\s*#+\s*/.exec(line)?.[0].length ?? 0);
      label = heading ? { start: at, end: lineEnd, text: content.slice(at, lineEnd).trimEnd() } : null;
      continue;
    }
    if (line.trim() === '' || TABLE_RULE.test(line) || HTML_ONLY.test(line)) {
      close();
      continue;
    }
    const marker = LIST_MARKER.exec(line);
    const row = !marker && (TABLE_ROW.test(line) || (CELL_ROW.test(line) && [lines[i - 1], lines[i + 1]].some((l) => l !== undefined && CELL_ROW.test(l))));
    if (marker || row) {
      close();
      open = { start: lineStart + (marker ? marker[0].length : line.length - line.trimStart().length), end: lineEnd, heading, label, kind: marker ? 'item' : 'row' };
      if (row) Object.assign(open, { piped: TABLE_ROW.test(line), ruleBelow: TABLE_RULE.test(lines[i + 1] ?? '') });
      if (row) close(); // a table row stands alone
      continue;
    }
    if (!open && isLabel(lines, i)) {
      const start = lineStart + (line.length - line.trimStart().length);
      label = { start, end: lineEnd, text: content.slice(start, lineEnd).trimEnd() };
      continue;
    }
    const quote = open ? undefined : QUOTE_MARKER.exec(line);
    if (open) open.end = lineEnd;
    else if (quote) open = { start: lineStart + quote[0].length, end: lineEnd, heading, label, kind: 'sentence' };
    else open = { start: lineStart + (line.length - line.trimStart().length), end: lineEnd, heading, label, kind: 'sentence' };
  }
  close();
  return blocks;
}

/** A one-line paragraph that names what the next paragraph describes (a `<dt>`, a signature). */
function isLabel(lines: readonly string[], i: number): boolean {
  const line = (lines[i] ?? '').trim();
  if (line.length > LABEL_MAX_CHARS || NOT_A_LABEL.test(line) || !/[\p{L}\p{N}]/u.test(line) || line.includes('://')) return false;
  if ((lines[i - 1] ?? '').trim() !== '' || (lines[i + 1] ?? '').trim() !== '') return false;
  // Right under a heading, the heading already names the section.
  const above = lines.slice(0, i).findLast((l) => l.trim() !== '' && !HTML_ONLY.test(l));
  if (above !== undefined && HEADING.test(above)) return false;
  // The next non-blank line must be prose: a label above a heading, a list or code names nothing.
  const at = lines.findIndex((l, j) => j > i && l.trim() !== '');
  const next = lines[at];
  if (next === undefined || HEADING.test(next) || FENCE.test(next) || LIST_MARKER.test(next) || TABLE_ROW.test(next)) return false;
  // Nor may it be another bare line: a table's cells read one per line ("`div` ( `y` `numeric`,
  // `x` `numeric` ) → `numeric`", "Integer quotient of `y`/`x` (truncates towards zero)",
  // "`div(9, 4)` → `2`") are facts to quote, not a chain of labels that leaves nothing to quote.
  const bare = (lines[at + 1] ?? '').trim() === '' && !NOT_A_LABEL.test(next.trim());
  return !bare;
}

function pushSpan(content: string, spans: SentenceSpan[], start: number, end: number, block: Block, index: number, lead: TextRange | null): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(content[s] ?? '')) s++;
  while (e > s && /\s/.test(content[e - 1] ?? '')) e--;
  if (e - s < 2 || !/[\p{L}\p{N}]/u.test(content.slice(s, e))) return;
  spans.push({ start: s, end: e, text: content.slice(s, e), heading: block.heading, label: block.label, block: index, kind: block.kind, lead, code: null, codeBelow: null });
}

/**
 * Line breaks and runs of spaces inside a sentence become one space, and so do the `>` that
 * continue a wrapped block quote: the sentence reads as written, without its line wrapping.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\n[ \t]{0,3}>[ \t]?/g, ' ').replace(/\s+/g, ' ').trim();
}
