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

  const push = (text: string, tight: boolean) => {
    blocks.push({ text, tight });
    length += text.length + 2;
  };

  const flush = (tight = false) => {
    const lines = inline
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
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
      inline += '\n';
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
  const code = (node.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
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
