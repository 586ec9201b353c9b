export type DocumentKind = 'html' | 'pdf' | 'text' | 'markdown';

export interface ExtractInput {
  bytes: Buffer | Uint8Array;
  /** The fetched or uploaded content type; parameters such as `charset` are allowed. */
  mimeType: string;
  /** Where the document came from: relative links are made absolute against it. */
  url?: string;
  /** An uploaded file's name: `notes.md` served as text/plain is read as markdown. */
  fileName?: string;
  /** From the Content-Type header (safeFetch's `charset`); wins over what the document says. */
  charset?: string;
}

export interface ExtractedDocument {
  /** From the document itself (HTML <title>/Readability, PDF metadata, first markdown heading); null if none. */
  title: string | null;
  byline: string | null;
  /**
   * Markdown-ish plain text that keeps structure for the chunker: `#` headings, paragraphs
   * separated by blank lines, `- ` list items, fenced code, link text inline without the URL.
   */
  text: string;
  /** Absolute http(s) URLs the document links to, in order, without duplicates. */
  links: string[];
  kind: DocumentKind;
  /** True when a cap (text length, PDF pages) cut the document short. */
  truncated: boolean;
}

/** Per-document caps. Every one of them turns into a reason code, never a hang or a crash. */
export interface ExtractLimits {
  /**
   * Processing time for one document: CPU time where /proc exists (Linux), so a busy machine
   * does not fail documents that fit; wall clock elsewhere. Wall clock is capped at 3× this
   * everywhere. Past either, the sandbox process is killed.
   */
  timeoutMs: number;
  /** Resident memory of the sandbox process (heap, ArrayBuffers, native); past it, killed. */
  maxRssMb: number;
  /** Any document, before it is parsed at all. */
  maxInputBytes: number;
  /** HTML left once scripts, styles and SVG are cut out: the DOM costs far more than its size. */
  maxHtmlBytes: number;
  /** Nesting deeper than this is refused before parsing (browsers flatten past 512). */
  maxHtmlDepth: number;
  maxHtmlElements: number;
  /** Above this many elements Readability (quadratic in places) is skipped for plain body text. */
  readabilityMaxElements: number;
  /** Pages beyond this are not read; the result says `truncated`. */
  maxPdfPages: number;
  /** Decompressed size of a PDF's non-image streams together: the decompression-bomb guard. */
  maxPdfInflatedBytes: number;
  maxTextChars: number;
  maxLinks: number;
}

export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = {
  timeoutMs: 30_000,
  maxRssMb: 512,
  maxInputBytes: 25 * 1024 * 1024,
  maxHtmlBytes: 5 * 1024 * 1024,
  maxHtmlDepth: 512,
  maxHtmlElements: 150_000,
  readabilityMaxElements: 20_000,
  maxPdfPages: 500,
  maxPdfInflatedBytes: 256 * 1024 * 1024,
  maxTextChars: 2_000_000,
  maxLinks: 1_000,
};
