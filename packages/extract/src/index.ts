import type {} from './error-codes.ts';
/**
 * @brain/extract — text out of HTML, PDF, markdown, plain text and Discord messages, shaped for
 * the chunker (markdown-ish: `#` headings, blank-line paragraphs, `- ` items, fenced code).
 *
 * HTML (Readability on linkedom) and PDF (pdf-parse from bytes) are parsed in pooled child
 * processes with a heap cap, an RSS watchdog and a wall-clock kill; a hostile document fails
 * its own call with a reason code and cannot take the calling process down. Every failure is an
 * AppError with an EXTRACT_* code; only EXTRACT_CRASHED (the sandbox died unexplained) is
 * retryable.
 */
export { extractDocument, createExtractor, closeSharedExtractor, DEFAULT_POOL_OPTIONS, type Extractor, type ExtractorOptions } from './extractor.ts';
export { extractDiscordMessage, neutralizeMentions, type DiscordMessageInput } from './discord.ts';
export { DEFAULT_EXTRACT_LIMITS, type DocumentKind, type ExtractedDocument, type ExtractInput, type ExtractLimits } from './types.ts';
export type { ExtractErrorCode } from './extract-errors.ts';
