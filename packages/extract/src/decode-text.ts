import { TextDecoder } from 'node:util';

/**
 * Bytes to text. The order follows the HTML standard's encoding sniffing, simplified: a BOM
 * wins, then the transport's charset, then (for HTML) a <meta> declaration in the first 1 KB,
 * then UTF-8. Unknown labels fall back to UTF-8; undecodable bytes become U+FFFD.
 */
export function decodeText(bytes: Uint8Array, declaredCharset: string | undefined, sniffHtmlMeta: boolean): string {
  const bom = bomEncoding(bytes);
  if (bom) return decoderFor(bom).decode(bytes.subarray(bom === 'utf-8' ? 3 : 2));
  const label = declaredCharset ?? (sniffHtmlMeta ? metaCharset(bytes) : undefined);
  return decoderFor(label).decode(bytes);
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}

function decoderFor(label: string | undefined): TextDecoder {
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

// C0 controls except tab and newline, DEL, C1 controls, and lone surrogates. PostgreSQL refuses
// NUL in text outright, and the others only confuse embeddings and Discord rendering.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Unicode's private-use characters mean something only in the font that drew them: icon fonts
 * (Django's console tabs write U+F17C for a penguin) and Word's symbol bullets (U+F0B7) in PDFs.
 * Anywhere else, Discord included, they show as empty boxes.
 */
export const PRIVATE_USE = /\p{Co}/gu;

/** Normalises newlines and removes characters no stored text should contain. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(PRIVATE_USE, '').replace(/^\ufeff/, '');
}

/** Cuts at `maxChars` on a line boundary where one is near, so no passage ends mid-word. */
export function capText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const cut = text.lastIndexOf('\n', maxChars);
  return { text: text.slice(0, cut > maxChars * 0.9 ? cut : maxChars).trimEnd(), truncated: true };
}
