// Elements whose content is never text. On modern pages they are most of the bytes (inline
// bundles, JSON state, CSS, SVG icons), and removing them before the DOM is built is the
// cheapest way to make a big page affordable.
const INERT = ['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object'];

/**
 * Cuts inert elements and comments out of the markup in one linear pass (indexOf over a lower
 * case copy, no backtracking regex a hostile page could make quadratic). An element left open
 * runs to the end of the document, as the HTML parser would treat it.
 */
export function stripInert(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let from = 0;
  let at = lower.indexOf('<', from);
  while (at >= 0) {
    const skipTo = inertEnd(lower, at);
    if (skipTo === undefined) {
      at = lower.indexOf('<', at + 1);
      continue;
    }
    out += html.slice(from, at);
    from = skipTo;
    at = lower.indexOf('<', from);
  }
  return out + html.slice(from);
}

/** Where the inert construct opening at `at` ends, or undefined if none opens there. */
function inertEnd(lower: string, at: number): number | undefined {
  if (lower.startsWith('<!--', at)) {
    const end = lower.indexOf('-->', at + 4);
    return end < 0 ? lower.length : end + 3;
  }
  for (const tag of INERT) {
    if (!lower.startsWith(tag, at + 1)) continue;
    const next = lower.charAt(at + 1 + tag.length);
    if (next !== '>' && next !== '/' && !/\s/.test(next)) continue;
    // JSON-LD is metadata Readability reads for the title and byline: small, and kept.
    if (tag === 'script' && lower.slice(at, lower.indexOf('>', at) + 1).includes('ld+json')) return undefined;
    const close = lower.indexOf(`</${tag}`, at + 1 + tag.length);
    if (close < 0) return lower.length;
    const gt = lower.indexOf('>', close);
    return gt < 0 ? lower.length : gt + 1;
  }
  return undefined;
}
