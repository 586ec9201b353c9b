/** The few members of linkedom's elements the widening reads. */
export interface RunElement {
  localName?: string;
  textContent: string | null;
  readonly parentElement: RunElement | null;
  readonly children: ArrayLike<RunElement>;
  getAttribute?(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<RunElement>;
  matches(selector: string): boolean;
  contains(other: RunElement): boolean;
}

/**
 * The attribute that marks an element with its position in document order (its index among
 * `querySelectorAll('*')`), the same on every parse of the same markup.
 */
export const POSITION = 'data-brain-n';

/** A `<section>`, or a block its generator calls one (Sphinx's and gi-docgen's `div.section`). */
const SECTION = 'section, .section';

/** Navigation inside content, removed wherever content is read whole. */
export const CHROME = 'nav, [role="navigation"], .navheader, .navfooter, body > #footer, #toc';

// Above this share of its text in links, what an ancestor adds is navigation (a sidebar, a table of
// contents, a header's menu), not more of the page.
const MAX_LINK_SHARE = 0.3;

/**
 * The element holding the whole run of sections Readability kept part of. Readability keeps its
 * best-scored block and the siblings that score near it, and on a reference page that is one
 * section of many: on Django's documentation (Sphinx sections nested in sections, no declared
 * `<main>`) one class of the GDAL reference, 13 % of the page; on Node.js's `errors.html` (sections
 * side by side) only the error codes, 64 %; on a gi-docgen class page (GTK's reference), the
 * inherited members without the class's own description, 8 %.
 *
 * From the kept blocks' nearest common ancestor it climbs while it is in a section and what each
 * ancestor adds is text rather than links: sibling sections, paragraphs, code and admonitions join;
 * a sidebar, a table of contents or a menu stops it. Never the body. Undefined when nothing kept
 * maps back to these elements (the page's, in document order), or when nothing kept is, is in or
 * holds a section (a news article keeps Readability's choice).
 */
export function keptRun(elements: readonly RunElement[], keptPositions: readonly number[]): RunElement | undefined {
  const kept = keptPositions.map((n) => elements[n]).filter((el): el is RunElement => el !== undefined);
  if (kept.length === 0) return undefined;
  let run = commonAncestor(kept);
  if (!run || isRoot(run)) return undefined;
  // Only up to the outermost section around what was kept, and one step beyond, to its siblings: a
  // news page's article sits beside its players, galleries and teasers, which are not more of it.
  const inSection = (el: RunElement) => isSection(el) || ancestors(el).some(isSection);
  let ceiling: RunElement | undefined;
  if (!kept.some(isSection) && !inSection(run)) {
    // Readability may keep a block around the sections and then clean parts of them away as
    // link-heavy (Django's class-based views reference: each view's ancestors and methods are
    // lists of links). The run is then the sections inside what it kept, and no more than that.
    const sections = Array.from(run.querySelectorAll(SECTION));
    const outer = sections.filter((el) => !sections.some((other) => other !== el && other.contains(el)));
    if (outer.length === 0) return undefined;
    ceiling = run;
    run = commonAncestor(outer) ?? run;
  }
  for (let parent = run.parentElement; parent && parent !== ceiling && !isRoot(parent) && inSection(run); parent = parent.parentElement) {
    if (parent.localName === 'nav' || parent.getAttribute?.('role') === 'navigation') break;
    const current = run;
    if (linkShare(Array.from(parent.children).filter((child) => child !== current && !child.contains(current))) > MAX_LINK_SHARE) break;
    run = parent;
  }
  return run;
}

/** The positions of the outermost marked elements under Readability's article. */
export function keptPositionsOf(article: RunElement): number[] {
  const positions: number[] = [];
  const visit = (el: RunElement) => {
    const n = el.getAttribute?.(POSITION);
    if (n) positions.push(Number(n));
    else for (const child of Array.from(el.children)) visit(child);
  };
  for (const child of Array.from(article.children)) visit(child);
  return positions;
}

function commonAncestor([first, ...rest]: RunElement[]): RunElement | undefined {
  if (!first) return undefined;
  return [first, ...ancestors(first)].find((candidate) => rest.every((el) => candidate.contains(el)));
}

function isSection(el: RunElement): boolean {
  return el.matches(SECTION);
}

function ancestors(el: RunElement): RunElement[] {
  const all: RunElement[] = [];
  for (let parent = el.parentElement; parent; parent = parent.parentElement) all.push(parent);
  return all;
}

function isRoot(el: RunElement): boolean {
  return el.localName === 'body' || el.localName === 'html';
}

/** The share of the elements' visible text that sits in links; all of it when one is navigation or an aside. */
function linkShare(elements: RunElement[]): number {
  let text = 0;
  let linked = 0;
  for (const el of elements) {
    if (el.localName === 'nav' || el.localName === 'aside' || el.getAttribute?.('role') === 'navigation') {
      // Removed when the run is read, so it adds nothing; but a sidebar beside the content says the
      // content ends here.
      return 1;
    }
    text += visible(el.textContent ?? '');
    for (const a of Array.from(el.querySelectorAll('a'))) linked += visible(a.textContent ?? '');
  }
  return text === 0 ? 0 : linked / text;
}

function visible(text: string): number {
  return text.replace(/\s+/g, '').length;
}
