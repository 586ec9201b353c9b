import { capText, cleanText, decodeText } from './decode-text.ts';
import { emptyDocument } from './extract-errors.ts';
import { LinkCollector } from './links.ts';
import type { ExtractedDocument, ExtractLimits } from './types.ts';

interface PlainInput {
  bytes: Uint8Array;
  kind: 'text' | 'markdown';
  url?: string;
  charset?: string;
}

// [text](url "title"), <https://autolink>, and bare http(s) URLs.
const MARKDOWN_LINK = /\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const BARE_URL = /\bhttps?:\/\/[^\s<>"'`)\]]+/g;

/**
 * Text and markdown stay as they are (the chunker understands markdown already): only decoded,
 * newline-normalised, stripped of control characters and capped. Links are collected; the
 * title is the first level-1 heading of a markdown file.
 */
export function extractPlain(input: PlainInput, limits: ExtractLimits): ExtractedDocument {
  const decoded = cleanText(decodeText(input.bytes, input.charset, false));
  const { text, truncated } = capText(decoded.trim(), limits.maxTextChars);
  if (text === '') throw emptyDocument(input.kind === 'markdown' ? 'markdown file' : 'text', 'Save a file that has some text in it.');

  const links = new LinkCollector(input.url, input.url, limits.maxLinks);
  if (input.kind === 'markdown') for (const match of text.matchAll(MARKDOWN_LINK)) links.add(match[1]);
  for (const match of text.matchAll(BARE_URL)) links.add(match[0].replace(/[.,;:!?]+$/, ''));

  return {
    kind: input.kind,
    title: input.kind === 'markdown' ? firstHeading(text) : null,
    byline: null,
    text,
    links: links.links,
    truncated,
  };
}

function firstHeading(markdown: string): string | null {
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) return heading[1].slice(0, 500);
  }
  return null;
}
