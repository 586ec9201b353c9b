import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { capText, cleanText, decodeText } from '../decode-text.ts';
import { emptyDocument, tooLarge } from '../extract-errors.ts';
import { absoluteBase, LinkCollector } from '../links.ts';
import type { ExtractedDocument, ExtractLimits } from '../types.ts';
import { guardHtml } from './html-guard.ts';
import { stripInert } from './strip-inert.ts';
import { codeLanguage, htmlToText, type DomNode } from './html-to-text.ts';
import { CHROME, keptPositionsOf, keptRun, POSITION, type RunElement } from './kept-run.ts';

interface HtmlInput {
  bytes: Uint8Array;
  url?: string;
  charset?: string;
}

// linkedom's types describe a browser DOM this package does not compile against (no DOM lib);
// these are the few members used here.
interface LinkedomElement extends DomNode, RunElement {
  readonly parentElement: LinkedomElement | null;
  readonly children: ArrayLike<LinkedomElement>;
  querySelector(selector: string): LinkedomElement | null;
  querySelectorAll(selector: string): ArrayLike<LinkedomElement>;
  setAttribute(name: string, value: string): void;
  remove(): void;
  prepend(text: string): void;
  append(...nodes: (DomNode | string)[]): void;
  contains(other: LinkedomElement): boolean;
  readonly nextElementSibling: LinkedomElement | null;
  readonly previousElementSibling: LinkedomElement | null;
}
interface LinkedomDocument {
  body: LinkedomElement | null;
  documentElement: LinkedomElement;
  querySelector(selector: string): LinkedomElement | null;
  querySelectorAll(selector: string): ArrayLike<LinkedomElement>;
}

/**
 * HTML → article text with Readability (on linkedom: jsdom ≥ 30 needs Node 22, and linkedom is
 * several times faster), falling back to the whole body when Readability finds no article or
 * the page is too big for it. Scripts never run and nothing is fetched: linkedom has neither.
 */
export function extractHtml(input: HtmlInput, limits: ExtractLimits): ExtractedDocument {
  const html = withDocumentShell(stripInert(cleanText(decodeText(input.bytes, input.charset, true))));
  // Measured once scripts, styles and SVG are gone: what remains is what the DOM will hold.
  const size = Buffer.byteLength(html);
  if (size > limits.maxHtmlBytes) throw tooLarge('page', size, limits.maxHtmlBytes);
  guardHtml(html, limits);

  const document = readable(parse(html));
  const base = absoluteBase(document.querySelector('base[href]')?.getAttribute?.('href') ?? undefined, input.url);
  const metaTitle = cleanInline(document.querySelector('title')?.textContent ?? '') || metaContent(document, 'meta[property="og:title"]');
  const metaByline = metaContent(document, 'meta[name="author"]');
  const elementCount = document.querySelectorAll('*').length;

  // Measured before Readability, which rearranges the document it reads.
  const declared = declaredContent(document);
  const declaredChars = declared ? visibleChars(declared.element.textContent ?? '') - declared.chrome.reduce((n, el) => n + visibleChars(el.textContent ?? ''), 0) : 0;
  const bodyChars = visibleChars(document.body?.textContent ?? '');

  let article: { title?: string | null; byline?: string | null; content?: unknown } | null = null;
  if (elementCount <= limits.readabilityMaxElements) {
    // Where the page declares no content, what Readability keeps is traced back to the page by position.
    if (!declared) markPositions(document);
    // Readability drops classes and demotes <h1>: record what the text needs before it runs.
    for (const h of Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6'))) {
      h.setAttribute('data-brain-level', (h.localName ?? 'h2').slice(1));
    }
    for (const pre of Array.from(document.querySelectorAll('pre'))) {
      const language = codeLanguage(pre);
      if (language) pre.setAttribute('data-brain-lang', language);
    }
    try {
      // Readability mutates the document; the fallback below parses the markup afresh.
      article = new Readability(document, { serializer: (el: unknown) => el }).parse();
    } catch {
      article = null; // a Readability bug on odd markup costs the article view, not the document
    }
  }

  let links = new LinkCollector(base, input.url, limits.maxLinks);
  let extracted = article?.content ? htmlToText(article.content as DomNode, links, limits.maxTextChars) : undefined;
  // Readability keeps the best-scored block and the siblings that score near it, and on a long
  // reference page that drops whole sections: on the PostgreSQL manual, all of "Checkpoints" and
  // "Archiving" of the WAL settings page, 129 of the 291 settings of the configuration chapter.
  // Where the page itself says what its content is, that is read whole when Readability kept
  // markedly less of it (an AsciiDoc page always: see declaredContent).
  const keptTooLittle = extracted !== undefined && extracted.text.trim() !== '' && visibleChars(extracted.text) < KEPT_SHARE * declaredChars;
  const readWhole = (element: LinkedomElement) => {
    const wholeLinks = new LinkCollector(base, input.url, limits.maxLinks);
    const whole = htmlToText(element, wholeLinks, limits.maxTextChars);
    if (whole.text.trim() === '') return;
    extracted = whole;
    links = wholeLinks;
  };
  if (declared?.always || keptTooLittle) {
    const root = declaredContent(readable(parse(html)));
    if (root) {
      for (const el of root.chrome) el.remove();
      readWhole(root.element);
    }
  } else if (!declared && article?.content && extracted && extracted.text.trim() !== '' && visibleChars(extracted.text) < KEPT_SHARE * bodyChars) {
    // Nothing declared: the run of sections Readability kept part of, when it kept markedly less
    // (never more than the body holds, so a page Readability kept most of is not parsed again).
    const fresh = Array.from(readable(parse(html)).querySelectorAll('*'));
    const run = keptRun(fresh, keptPositionsOf(article.content as LinkedomElement)) as LinkedomElement | undefined;
    if (run) {
      for (const el of outermost(Array.from(run.querySelectorAll(CHROME)))) el.remove();
      if (visibleChars(extracted.text) < KEPT_SHARE * visibleChars(run.textContent ?? '')) readWhole(run);
    }
  }
  if (!extracted || extracted.text.trim() === '') {
    const fresh = readable(parse(html));
    extracted = htmlToText((fresh.body ?? fresh.documentElement), links, limits.maxTextChars);
  }

  const { text, truncated } = capText(cleanText(extracted.text).trim(), limits.maxTextChars);
  if (text === '') throw emptyDocument('page', 'The page may build its text with JavaScript: save its text or a PDF of it instead.');
  return {
    kind: 'html',
    title: cleanInline(article?.title ?? '') || metaTitle || null,
    byline: cleanInline(article?.byline ?? '') || metaByline || null,
    text,
    links: links.links,
    truncated: truncated || extracted.truncated,
  };
}

/**
 * linkedom builds a usable document only from markup with <html> and <body> (a bare fragment
 * gets the fragment as its root, and bare text crashes it). Fragments and shell-less pages,
 * which HTML allows, are wrapped in one.
 */
function withDocumentShell(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const inner = html.replace(/<!doctype[^>]*>|<\/?(?:html|body)(?:\s[^>]*)?>/gi, '');
  return `<!doctype html><html><head></head><body>${inner}</body></html>`;
}

function parse(html: string): LinkedomDocument {
  const { document } = parseHTML(html) as unknown as { document: LinkedomDocument };
  return document;
}

// The glyph a documentation generator puts beside every heading and definition as a link to itself
// (Sphinx's "¶", MkDocs' and GitHub's "#" or "§", Doxygen's "◆", a chain emoji): navigation, not
// text. Left in, it ends every heading ("Basic Usage¶") and every quoted signature.
const PERMALINK_GLYPH = /^[\s¶§#◆🔗⚓]*$/u;

const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(;|$|!)/i;

/** The markup documentation generators add around the text, made to read as the page does. */
function readable(document: LinkedomDocument): LinkedomDocument {
  // What a reader never sees is never quoted, whichever way the page is read: Readability skips it,
  // and a page read whole (its declared content, the run of its sections) must too. Not
  // aria-hidden: that hides from screen readers what the eye sees (icons, and the rendered form of
  // KaTeX's and MathJax's formulas, whose MathML twin is cut out with every <math>).
  for (const el of Array.from(document.querySelectorAll('[hidden], [style]'))) {
    if (el.getAttribute?.('hidden') != null || HIDDEN_STYLE.test(el.getAttribute?.('style') ?? '')) el.remove();
  }
  for (const a of Array.from(document.querySelectorAll('a[href^="#"]'))) {
    if (PERMALINK_GLYPH.test(a.textContent ?? '') && (a.textContent ?? '').trim() !== '') a.remove();
  }
  // An admonition's title ("Note", "Warning", "See also": Sphinx, MkDocs, GitHub's alerts) is read
  // with the paragraph under it; on a line of its own it would be quoted as if it said something.
  // DocBook writes its title as a heading of the section's level (`<div class="note"><h3 class="title">`),
  // which would otherwise end the section it sits in and rename the rest of it "Note".
  for (const title of Array.from(document.querySelectorAll('.admonition-title, .markdown-alert-title, div.note > .title, div.tip > .title, div.warning > .title, div.caution > .title, div.important > .title'))) {
    const next = title.nextElementSibling;
    const label = (title.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/:$/, '');
    if (!next || next.localName !== 'p' || label === '' || label.length > 40) continue;
    next.prepend(`${label}: `);
    title.remove();
  }
  // A term with several spellings is written as consecutive <dt>s for one <dd> ("-k", "--keep-index",
  // "--no-keep-index" in Git's manual): a line each, the last alone would read as the description's
  // label and the others as lines of their own. They are one term line, as a man page prints it
  // ("-k, --keep-index, --no-keep-index"). Only command-line options: Sphinx writes an overloaded
  // function's signatures so too, and each of those reads whole.
  const isOption = (el: LinkedomElement) => /^\s*-/.test(el.textContent ?? '');
  for (const dt of Array.from(document.querySelectorAll('dt'))) {
    const first = dt.previousElementSibling;
    if (first?.localName !== 'dt' || !isOption(first) || !isOption(dt)) continue;
    trimEdge(first, 'end');
    trimEdge(dt, 'start');
    first.append(', ', ...Array.from(dt.childNodes));
    dt.remove();
  }
  // AsciiDoc's man pages open with "git-revert(1) Manual Page" as an <h1>: the page's <title> again,
  // which would stand in every passage's heading between the title and the section.
  for (const h1 of Array.from(document.querySelectorAll('body.manpage > #header > h1'))) h1.remove();
  return document;
}

/** Drops the whitespace at one edge of an element's text ("-k\n" before a ", " put after it). */
function trimEdge(node: DomNode, edge: 'start' | 'end'): void {
  const children = Array.from(node.childNodes);
  const child = edge === 'end' ? children.at(-1) : children[0];
  if (!child) return;
  if (child.nodeType === 3) child.nodeValue = edge === 'end' ? (child.nodeValue ?? '').trimEnd() : (child.nodeValue ?? '').trimStart();
  else trimEdge(child, edge);
}

// Doxygen's project banner, tree view, breadcrumb and footer, and the header's links to the page's own parts.
const DOXYGEN_CHROME = '#top, #side-nav, #nav-path, .header > .summary, hr.footer, address.footer';

/** Readability's text is read whole instead when it holds less than this share of the declared content's. */
const KEPT_SHARE = 0.8;

/**
 * The element a page declares as its content, and the navigation inside it: its one `<main>` (or
 * `role="main"`), else, on a page of DocBook's HTML stylesheets (the PostgreSQL manual, many
 * projects' references) or of AsciiDoc or Asciidoctor (Git's manual), the body, on a page of
 * Doxygen's its `#doc-content` (or the body), with the navigation, tables of contents and footers
 * those generators put around every page. Undefined when the page declares none.
 */
function declaredContent(document: LinkedomDocument): { element: LinkedomElement; chrome: LinkedomElement[]; always: boolean } | undefined {
  const mains = document.querySelectorAll('main, [role="main"]');
  const generator = metaContent(document, 'meta[name="generator"]') ?? '';
  const asciidoc = /^(AsciiDoc|Asciidoctor)\b/i.test(generator);
  const doxygen = /^Doxygen\b/i.test(generator);
  let element: LinkedomElement | undefined;
  if (mains.length === 1) element = mains[0];
  else if (asciidoc || /^DocBook XSL/i.test(generator)) element = document.body ?? undefined;
  // Doxygen's pages (C and C++ API references): Readability keeps a class's detailed description and
  // drops every member's documentation after it (libstdc++'s reference: 93 of 206 pages under 80 %).
  else if (doxygen) element = document.querySelector('#doc-content') ?? document.body ?? undefined;
  if (!element) return undefined;
  // AsciiDoc's and Asciidoctor's pages (Git's manual, many projects' man pages) put a table of
  // contents and a "Last updated" footer around the text, and are read whole even when Readability
  // keeps most of it: their header holds the line that says what a man page's command does (NAME),
  // which Readability never keeps.
  const always = mains.length !== 1 && asciidoc;
  const chrome = doxygen && mains.length !== 1 ? `${CHROME}, ${DOXYGEN_CHROME}` : CHROME;
  return { element, chrome: outermost(Array.from(element.querySelectorAll(chrome))), always };
}

/** Only the outermost: a <nav> inside a navigation header is counted once. */
function outermost(elements: LinkedomElement[]): LinkedomElement[] {
  return elements.filter((el) => !elements.some((other) => other !== el && other.contains(el)));
}

function markPositions(document: LinkedomDocument): void {
  for (const [i, el] of Array.from(document.querySelectorAll('*')).entries()) el.setAttribute(POSITION, String(i));
}

/** Characters a reader sees, whatever the markup or the text's own markers. */
function visibleChars(text: string): number {
  return text.replace(/[\s#`*>|-]+/g, '').length;
}

function metaContent(document: LinkedomDocument, selector: string): string | null {
  return cleanInline(document.querySelector(selector)?.getAttribute?.('content') ?? '') || null;
}

function cleanInline(value: string): string {
  return cleanText(value).replace(/\s+/g, ' ').trim().slice(0, 500);
}
