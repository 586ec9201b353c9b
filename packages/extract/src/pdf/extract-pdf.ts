import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFParse } from 'pdf-parse';
import { capText, cleanText } from '../decode-text.ts';
import type { AppError } from '@brain/errors';
import { emptyDocument, extractError } from '../extract-errors.ts';
import type { ExtractedDocument, ExtractLimits } from '../types.ts';
import { annotationText, type PdfDocument } from './annotation-text.ts';
import { withoutAttachmentOnlyEncryption } from './attachment-encryption.ts';
import { guardPdfStreams } from './pdf-bomb-guard.ts';

// pdf.js needs CMaps to read CID fonts with a predefined encoding (most CJK PDFs): without them
// every such glyph is dropped and the document looks like a scan. They ship with pdfjs-dist and
// are read from disk (Node's pdf.js reads a path, never a URL), so this works in the sandbox.
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const CMAP_DIR = `${path.join(PDFJS_DIR, 'cmaps')}${path.sep}`;

/**
 * PDF → text with pdf-parse (pdf.js 5.4) from bytes only: a URL would let pdf.js fetch around
 * the SSRF guard. pdf.js is told not to evaluate code (CVE-2024-4367 was arbitrary JS through
 * font matrices), not to load fonts, WebAssembly or XFA, and not to decode images.
 */
export async function extractPdf(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  await guardPdfStreams(bytes, limits.maxPdfInflatedBytes);
  try {
    return await readPdf(bytes, limits);
  } catch (error) {
    // pdf.js asks for the password of any encrypted file, even one whose pages are in the clear.
    const clear = (error as AppError | undefined)?.code === 'EXTRACT_PDF_ENCRYPTED' ? withoutAttachmentOnlyEncryption(bytes) : undefined;
    if (!clear) throw error;
    return readPdf(clear, limits);
  }
}

async function readPdf(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  const parser = new PDFParse({
    // pdf.js may take ownership of (detach) the array it is given: hand it a copy.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useWasm: false,
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    maxImageSize: 1,
    cMapUrl: CMAP_DIR,
    cMapPacked: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const info = await parser.getInfo();
    const pages = Math.min(info.total, limits.maxPdfPages);
    const result = await parser.getText(info.total > pages ? { first: pages } : {});
    // pdf-parse keeps its pdf.js document private; its annotations hold form values and comments.
    const document = await (parser as unknown as { load(): Promise<PdfDocument> }).load();
    const texts: string[] = [];
    for (const page of result.pages) {
      const text = [page.text.trim(), await annotationText(document, page.num, page.text)].filter((t) => t !== '').join('\n');
      if (text !== '') texts.push(text);
    }
    const joined = texts.join('\n\n');
    const { text, truncated } = capText(cleanText(joined), limits.maxTextChars);
    if (text.trim() === '') {
      throw emptyDocument('PDF', 'It has no text layer, which usually means it is a scan: run it through OCR first, or paste its text.');
    }
    const metadata = (info.info ?? {}) as Record<string, unknown>;
    return {
      kind: 'pdf',
      title: metadataString(metadata.Title),
      byline: metadataString(metadata.Author),
      text,
      links: [],
      truncated: truncated || info.total > pages,
    };
  } catch (error) {
    throw mapPdfError(error);
  } finally {
    await parser.destroy();
  }
}

function metadataString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = cleanText(value).replace(/\s+/g, ' ').trim();
  return cleaned === '' ? null : cleaned.slice(0, 500);
}

function mapPdfError(error: unknown): unknown {
  const name = (error as Error | undefined)?.name;
  if (name === 'PasswordException') {
    return extractError('EXTRACT_PDF_ENCRYPTED', {
      message: 'PDF needs a password',
      userMessage: 'That PDF is password-protected.',
      nextStep: 'Save a copy without the password (print to PDF), or paste its text.',
      cause: error,
    });
  }
  if (name === 'InvalidPDFException' || name === 'FormatError') {
    return extractError('EXTRACT_PDF_INVALID', {
      message: `Not a readable PDF: ${(error as Error).message}`,
      userMessage: 'That file is not a valid PDF (it is damaged or not a PDF at all).',
      nextStep: 'Open it in a PDF reader; if it opens, save a fresh copy and try again.',
      cause: error,
    });
  }
  return error;
}
