import { fetchError } from './fetch-errors.ts';

/** The types the extractor understands. Everything else is refused before its body is read. */
export type DocumentMimeType = 'text/html' | 'application/xhtml+xml' | 'application/pdf' | 'text/plain' | 'text/markdown';

const ALIASES: Record<string, DocumentMimeType> = {
  'text/html': 'text/html',
  'application/xhtml+xml': 'application/xhtml+xml',
  'application/pdf': 'application/pdf',
  'application/x-pdf': 'application/pdf',
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
};

// What servers say when they do not know: worth reading the body and looking.
const UNKNOWN = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary', 'application/force-download', 'application/x-download']);

export interface ParsedContentType {
  mime: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): ParsedContentType {
  const [type = '', ...params] = (header ?? '').split(';');
  const mime = type.trim().toLowerCase();
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key?.trim().toLowerCase() === 'charset' && value) {
      const charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
      if (charset !== '') return { mime, charset };
    }
  }
  return { mime };
}

/**
 * Decides from the headers alone: a known document type, `sniff` (the server does not say, so
 * the body decides), or a refusal that costs no download.
 */
export function acceptContentType(mime: string, url: string): DocumentMimeType | 'sniff' {
  const known = ALIASES[mime];
  if (known) return known;
  if (UNKNOWN.has(mime)) return 'sniff';
  throw unsupportedType(mime, url);
}

/**
 * Settles the type once the body is here. A body that starts with `%PDF-` is a PDF whatever the
 * header claimed (no HTML or text document starts that way, and the PDF path is the stricter
 * one). An undeclared body is a PDF by its magic bytes, or markdown / text / HTML by the URL's
 * extension, and only when it decodes as UTF-8 with no NUL bytes: an executable or an archive
 * named `notes.txt` is refused rather than fed to a text parser.
 */
export function settleContentType(declared: DocumentMimeType | 'sniff', body: Buffer, url: string, mime: string): DocumentMimeType {
  if (body.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (declared !== 'sniff') return declared;
  // ISO 32000: the header may follow up to 1,024 bytes of junk.
  if (body.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  const byExtension: Record<string, DocumentMimeType> = {
    md: 'text/markdown',
    markdown: 'text/markdown',
    txt: 'text/plain',
    text: 'text/plain',
    html: 'text/html',
    htm: 'text/html',
  };
  const guess = extension === undefined ? undefined : byExtension[extension];
  if (guess && looksLikeUtf8Text(body)) return guess;
  throw unsupportedType(mime || 'no content type', url);
}

function looksLikeUtf8Text(body: Buffer): boolean {
  if (body.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

function unsupportedType(mime: string, url: string) {
  return fetchError('FETCH_UNSUPPORTED_TYPE', {
    message: `Refused content type ${mime} from ${url}`,
    userMessage: `That link is a ${mime} file, which can't be saved.`,
    nextStep: 'Save a web page, a PDF, a markdown or a plain-text file.',
    httpStatus: 415,
    details: { contentType: mime, url },
  });
}
