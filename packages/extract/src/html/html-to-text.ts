import { PRIVATE_USE } from '../decode-text.ts';
import type { LinkCollector } from '../links.ts';

/** The slice of the DOM this walker reads; linkedom's nodes satisfy it. */
export interface DomNode {
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  localName?: string;
  getAttribute?(name: string): string | null;
}

const ELEMENT = 1;
const TEXT = 3;

/** Never text: scripts, styles, embedded documents, form widgets, graphics. */
export const SKIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'svg', 'math', 'canvas', 'iframe',
  'frame', 'frameset', 'object', 'embed', 'video', 'audio', 'picture', 'img', 'map', 'button', 'input', 'select',
  'textarea', 'option', 'datalist', 'dialog',
]);

const TABLE_PARTS = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption']);

const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'figure', 'figcaption', 'address',
  'dl', 'dt', 'dd', 'details', 'summary', 'form', 'fieldset', 'legend', 'table', 'thead', 'tbody', 'tfoot', 'caption',
  'center', 'hgroup', 'body', 'html', 'hr',
]);

interface Block {
  text: string;
  /** List items and table rows sit on consecutive lines; everything else is a paragraph. */
  tight: boolean;
}

export interface HtmlTextResult {
  text: string;
  truncated: boolean;
}

/**
 * Turns a DOM into markdown-ish text: `#` headings, blank-line paragraphs, `- ` list items
 * (indented when nested), `> ` quotes, fenced code, `a | b` table rows, link text inline while
 * the link's URL goes to the collector.
 *
 * Iterative on purpose: hostile nesting cannot overflow the stack, and the walk stops as soon
 * as `maxChars` of text exist, so a huge page costs no more than the text that is kept.
 */
export function htmlToText(root: DomNode, links: LinkCollector, maxChars: number): HtmlTextResult {
  const blocks: Block[] = [];
  let length = 0;
  let inline = '';
  let heading = 0;
  let listDepth = 0;
  let quoteDepth = 0;
  let cellDepth = 0;
  let cellIndex = 0;
  let bullet = false;
  // One entry per open <table>: whether it lays a page out (its cells are blocks) or holds data (a row per line).
  const layoutTables: boolean[] = [];

  const push = (text: string, tight: boolean) => {
    blocks.push({ text, tight });
    length += text.length + 2;
  };

  const flush = (tight = false) => {
    const lines = inline
      .split('\n')
      .map((line) => iconless(line).replace(/\s+/g, ' ').trim())
      .filter((line) => line !== '');
    inline = '';
    if (lines.length === 0) return;
    const quote = '> '.repeat(quoteDepth);
    if (heading > 0) {
      push(`${quote}${'#'.repeat(heading)} ${lines.join(' ')}`, false);
      return;
    }
    if (listDepth > 0) {
      const indent = '  '.repeat(listDepth - 1);
      const first = bullet ? `${indent}- ` : `${indent}  `;
      bullet = false;
      push(lines.map((line, i) => `${quote}${i === 0 ? first : `${indent}  `}${line}`).join('\n'), true);
      return;
    }
    push(lines.map((line) => `${quote}${line}`).join('\n'), tight);
  };

  // Each entry is a node to enter, or a closing action to run after its children.
  const stack: (DomNode | (() => void))[] = [root];
  while (stack.length > 0 && length < maxChars) {
    const item = stack.pop();
    if (item === undefined) break;
    if (typeof item === 'function') {
      item();
      continue;
    }
    if (item.nodeType === TEXT) {
      inline += (item.nodeValue ?? '').replace(/\s+/g, ' ');
      continue;
    }
    if (item.nodeType !== ELEMENT) continue;
    const tag = item.localName ?? '';
    if (SKIPPED.has(tag)) continue;

    const close = enter(tag, item);
    if (close === 'leaf') continue;
    if (close) stack.push(close);
    // One read of childNodes: linkedom rebuilds the list on every access.
    const children = Array.from(item.childNodes);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as DomNode);
  }

  function enter(tag: string, node: DomNode): (() => void) | 'leaf' | undefined {
    if (tag === 'br') {
      // A line break inside a data cell must not split the row across lines.
      inline += cellDepth > 0 ? ' ' : '\n';
      return 'leaf';
    }
    if (tag === 'a') {
      links.add(node.getAttribute?.('href'));
      return undefined;
    }
    if (cellDepth > 0) {
      // Inside a table cell, blocks would break the row apart: keep them on the row's line.
      if (tag === 'td' || tag === 'th') cellDepth++;
      if (BLOCKS.has(tag) || tag === 'li' || /^h[1-6]$/.test(tag)) inline += ' ';
      return tag === 'td' || tag === 'th' ? () => void cellDepth-- : undefined;
    }
    if (tag === 'pre') {
      flush();
      const code = fenced(node);
      if (code) push(code, false);
      return 'leaf';
    }
    if (tag === 'code') {
      inline += '`';
      return () => void (inline += '`');
    }
    const level = headingLevel(tag, node);
    if (level > 0) {
      flush();
      heading = level;
      return () => {
        flush();
        heading = 0;
      };
    }
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      flush();
      listDepth++;
      return () => {
        flush();
        listDepth--;
      };
    }
    if (tag === 'li') {
      flush();
      bullet = true;
      return () => {
        flush();
        bullet = false;
      };
    }
    if (tag === 'blockquote') {
      flush();
      quoteDepth++;
      return () => {
        flush();
        quoteDepth--;
      };
    }
    if (tag === 'table') {
      flush();
      layoutTables.push(isLayoutTable(node));
      return () => {
        flush();
        layoutTables.pop();
      };
    }
    if (tag === 'tr' && layoutTables.length === 0) {
      // A row with no table around it: Readability turns the table it picks as the article into a <div>.
      layoutTables.push(isLayoutRows([node]));
      const closeRow = enter(tag, node) as () => void;
      return () => {
        closeRow();
        layoutTables.pop();
      };
    }
    if (layoutTables.at(-1) === true && TABLE_PARTS.has(tag)) {
      flush();
      return () => flush();
    }
    if (tag === 'tr') {
      flush();
      cellIndex = 0;
      return () => flush(true);
    }
    if (tag === 'td' || tag === 'th') {
      if (cellIndex++ > 0) inline += ' | ';
      cellDepth++;
      return () => void cellDepth--;
    }
    if (BLOCKS.has(tag)) {
      flush();
      return () => flush();
    }
    return undefined;
  }

  flush();
  let text = '';
  blocks.forEach((block, i) => {
    const previous = blocks[i - 1];
    text += i === 0 ? block.text : `${previous?.tight && block.tight ? '\n' : '\n\n'}${block.text}`;
  });
  return { text, truncated: length >= maxChars || stack.length > 0 };
}

/** Readability demotes every <h1> to <h2>; the level recorded before it ran is the real one. */
function headingLevel(tag: string, node: DomNode): number {
  if (!/^h[1-6]$/.test(tag)) return 0;
  const recorded = Number(node.getAttribute?.('data-brain-level'));
  return recorded >= 1 && recorded <= 6 ? recorded : Number(tag[1]);
}

function fenced(node: DomNode): string | undefined {
  const code = preformattedText(node).replace(/^\n/, '').replace(/\s+$/, '');
  if (code === '') return undefined;
  const language = codeLanguage(node);
  const longestRun = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${code}\n${fence}`;
}

/** `language-x` / `lang-x` on <pre> or its <code>, as highlighters mark them. */
export function codeLanguage(pre: DomNode): string {
  const recorded = pre.getAttribute?.('data-brain-lang');
  if (recorded) return recorded;
  const classes = [pre.getAttribute?.('class') ?? ''];
  const first = Array.from(pre.childNodes).find((n) => n.nodeType === ELEMENT);
  if (first?.localName === 'code') classes.push(first.getAttribute?.('class') ?? '');
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes.join(' '))?.[1] ?? '';
}

/**
 * A line's words without icon-font glyphs (entities such as `&#xf17c;` become characters only
 * when parsed, after cleanText has read the markup). A line that was only icons and the
 * punctuation between them ("&#xf17c;/&#xf179;", a tab's label) goes whole: a stray "/" line
 * would part a sentence from the code it introduces.
 */
function iconless(line: string): string {
  const words = line.replace(PRIVATE_USE, '');
  if (words === line || /[\p{L}\p{N}]/u.test(words)) return words;
  return '';
}

/**
 * The text of a <pre>, where a <br> is a line break (textContent drops it: `a;<br>b;` would
 * read `a;b;`) and a line-per-element highlighter's block children each start a line.
 */
function preformattedText(pre: DomNode): string {
  let text = '';
  const stack: (DomNode | 'newline')[] = [pre];
  while (stack.length > 0) {
    const node = stack.pop() as DomNode | 'newline';
    if (node === 'newline') {
      if (text !== '' && !text.endsWith('\n')) text += '\n';
      continue;
    }
    if (node.nodeType === TEXT) {
      text += node.nodeValue ?? '';
      continue;
    }
    if (node.nodeType !== ELEMENT) continue;
    const tag = node.localName ?? '';
    if (tag === 'br') {
      text += '\n';
      continue;
    }
    if (SKIPPED.has(tag)) continue;
    const block = node !== pre && (BLOCKS.has(tag) || tag === 'li');
    if (block) stack.push('newline');
    const children = Array.from(node.childNodes);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as DomNode);
    if (block) stack.push('newline');
  }
  return text;
}

/** Nodes of a table looked at before it is judged: bounds the cost of hostile tables. */
const TABLE_SCAN_LIMIT = 5_000;

/**
 * Pages laid out in a table (a sidebar cell and a content cell, or one cell holding the whole
 * page) put headings, paragraphs and code in cells; read as data, every cell would be flattened
 * onto one line and every heading lost. A table is taken as layout when it says so
 * (role=presentation), has a single column, holds another table, or a cell holds a heading or
 * preformatted code — what a data table's cells do not. Otherwise it is data: a row per line.
 * Only this table's own cells are scanned (nested tables are judged on their own), iteratively.
 */
function isLayoutTable(table: DomNode): boolean {
  const role = table.getAttribute?.('role')?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  return isLayoutRows(
    elementChildren(table).flatMap((child) =>
      child.localName === 'tr' ? [child] : ['thead', 'tbody', 'tfoot'].includes(child.localName ?? '') ? elementChildren(child).filter((r) => r.localName === 'tr') : [],
    ),
  );
}

function isLayoutRows(rows: readonly DomNode[]): boolean {
  const cells: DomNode[] = [];
  let columns = 0;
  for (const row of rows) {
    const rowCells = elementChildren(row).filter((c) => c.localName === 'td' || c.localName === 'th');
    columns = Math.max(columns, rowCells.length);
    for (const cell of rowCells) cells.push(cell);
  }
  if (cells.length === 0) return false;
  if (columns <= 1) return true;
  let seen = 0;
  const stack: DomNode[] = [...cells];
  while (stack.length > 0 && seen++ < TABLE_SCAN_LIMIT) {
    const node = stack.pop() as DomNode;
    const tag = node.localName ?? '';
    if (tag === 'table' || tag === 'pre' || /^h[1-6]$/.test(tag)) return true;
    if (SKIPPED.has(tag)) continue;
    // A loop, not push(...children): a node with 100k children would overflow the call's arguments.
    for (const child of elementChildren(node)) stack.push(child);
  }
  return false;
}

function elementChildren(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).filter((child) => child.nodeType === ELEMENT);
}
