import { extractError } from './extract-errors.ts';
import type { DocumentKind } from './types.ts';

const KINDS: Record<string, DocumentKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
};

/** The parser for a content type; a `.md`/`.markdown` file sent as text/plain is markdown. */
export function documentKind(mimeType: string, fileName?: string): DocumentKind {
  const mime = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  const kind = KINDS[mime];
  if (!kind) {
    throw extractError('EXTRACT_UNSUPPORTED_TYPE', {
      message: `No extractor for ${mime || 'an empty content type'}`,
      userMessage: `Files of type ${mime || 'unknown'} can't be read.`,
      nextStep: 'Save a web page, a PDF, a markdown or a plain-text file.',
      details: { mimeType: mime },
    });
  }
  if (kind === 'text' && fileName && /\.(md|markdown)$/i.test(fileName)) return 'markdown';
  return kind;
}
