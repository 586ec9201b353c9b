/**
 * Reads markdown-ish text (what the extraction package produces, or a saved .md file) into
 * sections: the heading path in force, then its blocks in order. Only what matters for chunking is
 * recognised: ATX headings, fenced code, blank-line paragraphs, and list or table lines. Anything
 * else is prose. Linear in the input; no backtracking regexes over whole documents.
 */
export type Block =
  | { kind: 'prose'; text: string }
  /** Consecutive list items or table rows: each line, with its continuation lines, is one item. */
  | { kind: 'items'; items: string[] }
  | { kind: 'code'; open: string; close: string; lines: string[] };

export interface Section {
  /** Heading texts from the outermost level in, e.g. ["Reply", ".send(data)"]. */
  path: string[];
  /** The markdown level (1–6) of each heading in `path`. */
  levels: number[];
  blocks: Block[];
  /** True when the section had no text: its one block repeats its heading (see parseSections). */
  headingOnly?: boolean;
}

const HEADING_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const CLOSING_HASHES = /[ \t]#+$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSING_FENCE = /^(`{3,}|~{3,})$/;
const ITEM = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|\|)/;
const MARKUP_ONLY = /^(?:\s*(?:<[^<>]{0,500}>|<!--[\s\S]{0,2000}?-->))+\s*$/;
/** Longest heading segment kept: a heading is a label, not a passage. */
const MAX_HEADING_CHARS = 120;

export function parseSections(text: string): Section[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: [], levels: [], blocks: [] };
  let paragraph: string[] = [];

  const flushParagraph = () => {
    const block = paragraph.length > 0 ? toBlock(paragraph) : undefined;
    if (block) current.blocks.push(block);
    paragraph = [];
  };
  const startSection = () => {
    flushParagraph();
    const path = stack.map((h) => h.text);
    // A heading with nothing under it lives on in the path of its subsections; with none (a
    // sibling or a higher heading comes next, or the document ends) it would vanish, and a page
    // of headings alone would give no passage at all. It becomes its own passage instead.
    const heading = current.path.at(-1);
    if (current.blocks.length === 0 && heading !== undefined && !startsWith(path, current.path)) {
      current.blocks.push({ kind: 'prose', text: heading });
      current.headingOnly = true;
    }
    if (current.blocks.length > 0) sections.push(current);
    current = { path, levels: stack.map((h) => h.level), blocks: [] };
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence && !(fence[1]?.startsWith('`') && fence[2]?.includes('`'))) {
      flushParagraph();
      const marker = fence[1] as string;
      const body: string[] = [];
      let close = '';
      for (i++; i < lines.length; i++) {
        const inner = lines[i] as string;
        const trimmed = inner.trim();
        if (trimmed[0] === marker[0] && trimmed.length >= marker.length && CLOSING_FENCE.test(trimmed)) {
          close = trimmed;
          break;
        }
        body.push(inner);
      }
      // An unclosed fence runs to the end of the document (as in CommonMark); close it in the output.
      current.blocks.push({ kind: 'code', open: line.trim(), close: close || marker, lines: body });
      continue;
    }
    const heading = HEADING_OPEN.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      const label = cleanHeading(line.slice(heading[0].length).trim().replace(CLOSING_HASHES, ''));
      while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= level) stack.pop();
      if (label) stack.push({ level, text: label });
      startSection();
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      continue;
    }
    paragraph.push(line);
  }
  stack.length = 0;
  startSection();
  return sections;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((part, i) => path[i] === part);
}

/**
 * A paragraph whose first line is a list item or table row is split into items; otherwise prose.
 * A paragraph of markup alone (an HTML anchor such as `<a id="x"></a>`, a comment) says nothing
 * a reader or a search could use: it is dropped.
 */
function toBlock(lines: string[]): Block | undefined {
  const text = lines.join('\n');
  if (MARKUP_ONLY.test(text)) return undefined;
  if (!ITEM.test(lines[0] as string)) return { kind: 'prose', text };
  const items: string[] = [];
  for (const line of lines) {
    if (ITEM.test(line) || items.length === 0) items.push(line);
    else items[items.length - 1] += '\n' + line;
  }
  return { kind: 'items', items };
}

/** Headings are labels: drop inline markup (links, code ticks, emphasis, HTML tags) and cap the length. */
export function cleanHeading(raw: string): string {
  let text = raw
    .slice(0, MAX_HEADING_CHARS * 8)
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/!?\[([^\]]{0,200})\]\([^)]{0,500}\)/g, '$1')
    .replace(/`+/g, '')
    // Asterisk emphasis only: underscores belong to identifiers such as FST_ERR_NOT_FOUND.
    .replace(/(\*\*?)(\S(?:[^*]{0,200}\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length > MAX_HEADING_CHARS) text = text.slice(0, MAX_HEADING_CHARS - 1).trimEnd() + '…';
  return text;
}
