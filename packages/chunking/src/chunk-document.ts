import { createHash } from 'node:crypto';
import { AppError } from '@brain/errors';
import { tokenCounterFor } from './estimate-tokens.ts';
import { groupPieces, groupSections } from './merge-sections.ts';
import { packPieces } from './pack.ts';
import { cleanHeading, parseSections } from './parse-sections.ts';
import { blockToPieces } from './pieces.ts';

/** Changes whenever the same input would give different chunks, so stored chunks can be recognised as stale. */
export const chunkingVersion = 'md-v4';

export const HEADING_SEPARATOR = ' › ';

export interface ChunkInput {
  /** The source's title; it leads every chunk's heading. */
  title?: string | null;
  /** Markdown-ish text: `#` headings, blank-line paragraphs, `- ` items, fenced code. */
  text: string;
}

export interface ChunkOptions {
  /** Budget per passage in estimated tokens (see estimateTokens); default 400. */
  maxTokens?: number;
  /** Whole sentences repeated from the previous passage of the same section; default 60. */
  overlapTokens?: number;
  /**
   * Join consecutive sections that fit in one passage together, under their common heading, each
   * keeping its own heading as a line (see groupSections). Default false: every passage then sits
   * under exactly one section. See docs/saving-and-indexing.md, "Chunking", for what it changes in retrieval.
   */
  mergeSmallSections?: boolean;
}

export interface Chunk {
  ordinal: number;
  /** Title and heading path, e.g. "Fastify › Reply › .send(data)"; empty when the source has neither. */
  heading: string;
  /** The passage only; the heading is stored beside it. */
  content: string;
  /** sha256 (hex) of heading + "\n" + content: a passage that did not change is not embedded again. */
  contentHash: string;
  /** estimateTokens(content) at the document's letter rate (see lettersPerTokenOf). */
  tokenCount: number;
}

export const DEFAULT_MAX_TOKENS = 400;
export const DEFAULT_OVERLAP_TOKENS = 60;
const MIN_MAX_TOKENS = 32;

/**
 * Splits a document into passages: paragraphs first (a fenced code block stays whole when it fits),
 * then sentences, then a hard cut only for a single sentence over the budget. A section too long
 * for one passage is split inside itself, with overlap, under its own heading path; overlap never
 * crosses a heading. With `mergeSmallSections`, consecutive sections small enough to share one
 * passage are joined under their common heading path, each with its own heading as a line: the
 * heading of a passage is always true of all its text. No passage is over `maxTokens` (by
 * estimateTokens). Pure and deterministic.
 */
export function chunkDocument(input: ChunkInput, options: ChunkOptions = {}): Chunk[] {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const overlapTokens = options.overlapTokens ?? DEFAULT_OVERLAP_TOKENS;
  validate(maxTokens, overlapTokens);

  const title = cleanHeading(input.title ?? '');
  // One letter rate for the whole document (see estimateTokens), so its pieces' estimates add up.
  const tokens = tokenCounterFor(input.text);
  const sections = parseSections(input.text).map((section) => {
    const pieces = section.blocks.flatMap((block) => blockToPieces(block, maxTokens, tokens));
    return { section, pieces, tokens: pieces.reduce((n, p) => n + p.tokens, 0) };
  });
  const groups = options.mergeSmallSections
    ? groupSections(sections, maxTokens, tokens)
    : sections.map((s) => ({ path: s.section.path, members: [s] }));
  const passages = groups.flatMap((group) => {
    const heading = headingFor(title, group.path);
    return packPieces(groupPieces(group, tokens), maxTokens, overlapTokens, tokens).map((content) => ({ heading, content }));
  });
  // A page that opens with its title as a line or a heading of its own, its sections following
  // (SQLite's manual: "<h1>Temporary Files Used By SQLite</h1><h1>1. Introduction</h1>"), would
  // give a passage saying only the title, which every passage's heading already says; short and
  // holding the product's name, it outranked the passages that answer. Kept only when it is all
  // the page gives.
  const saysOnlyTitle = (p: { heading: string; content: string }) => title !== '' && p.heading === title && cleanHeading(p.content).toLowerCase() === title.toLowerCase();
  const kept = passages.some((p) => !saysOnlyTitle(p)) ? passages.filter((p) => !saysOnlyTitle(p)) : passages;
  return kept.map(({ heading, content }, ordinal) => ({
    ordinal,
    heading,
    content,
    contentHash: createHash('sha256').update(`${heading}\n${content}`).digest('hex'),
    tokenCount: tokens.count(content),
  }));
}

/** What every caller embeds for a chunk, so ingestion, re-embedding and evaluation agree. */
export function textForEmbedding(chunk: Pick<Chunk, 'heading' | 'content'>): string {
  return chunk.heading ? `${chunk.heading}\n${chunk.content}` : chunk.content;
}

function headingFor(title: string, path: readonly string[]): string {
  // Documents often repeat their title as the first heading, and sections their parent's name:
  // "Reply › Reply › Properties" says nothing more than "Reply › Properties".
  const parts: string[] = [];
  for (const part of [title, ...path]) {
    if (part !== '' && part.toLowerCase() !== parts.at(-1)?.toLowerCase()) parts.push(part);
  }
  return parts.join(HEADING_SEPARATOR);
}

function validate(maxTokens: number, overlapTokens: number): void {
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS) {
    throw invalidOptions(`maxTokens must be an integer of at least ${MIN_MAX_TOKENS}, got ${maxTokens}`);
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens > maxTokens / 2) {
    throw invalidOptions(`overlapTokens must be an integer between 0 and half of maxTokens (${maxTokens / 2}), got ${overlapTokens}`);
  }
}

function invalidOptions(message: string): AppError {
  return new AppError({
    code: 'CHUNKING_OPTIONS_INVALID',
    message,
    nextStep: `Use the defaults (maxTokens ${DEFAULT_MAX_TOKENS}, overlapTokens ${DEFAULT_OVERLAP_TOKENS}) or values within the stated range.`,
  });
}
