/**
 * Collects outgoing links: absolute, http(s) only, deduplicated in order, capped. Links back to
 * the page itself (in-page anchors) are not outgoing links and are dropped.
 */
export class LinkCollector {
  readonly #seen = new Set<string>();
  readonly #page: string | undefined;

  constructor(
    private readonly base: string | undefined,
    pageUrl: string | undefined,
    private readonly max: number,
  ) {
    this.#page = pageUrl === undefined ? undefined : withoutHash(pageUrl);
  }

  add(href: string | null | undefined): void {
    if (!href || this.#seen.size >= this.max) return;
    let url: URL;
    try {
      url = new URL(href.trim(), this.base);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (url.username || url.password) return;
    if (this.#page !== undefined && withoutHash(url.href) === this.#page) return;
    this.#seen.add(url.href);
  }

  get links(): string[] {
    return [...this.#seen];
  }
}

function withoutHash(href: string): string {
  const at = href.indexOf('#');
  return at < 0 ? href : href.slice(0, at);
}

/** A base URL for relative links, or undefined when the input is not an absolute URL. */
export function absoluteBase(candidate: string | undefined, relativeTo?: string): string | undefined {
  if (!candidate) return relativeTo;
  try {
    return new URL(candidate, relativeTo).href;
  } catch {
    return relativeTo;
  }
}
