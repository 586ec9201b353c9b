// `/Encrypt` as a trailer key: followed by a reference or a dictionary (not `/EncryptMetadata`).
const ENCRYPT_KEY = /\/Encrypt(?=\s*(?:\d+\s+\d+\s+R|<<))/g;
const ENCRYPT_REF = /\/Encrypt\s*(\d+)\s+(\d+)\s+R/;
// Same length as `/Encrypt`, so every byte offset in the cross-reference table stays true.
const NEUTRAL_KEY = '/NoCrypt';
const MAX_DICTIONARY_CHARS = 8192;

/**
 * A PDF can encrypt only its attached files (PDF 1.6 crypt filters: `/StmF` and `/StrF` are
 * `/Identity`, `/EFF` names the filter for embedded files), so that anyone can read the pages
 * and only the attachment needs the password. pdf.js still asks for the password before it
 * reads anything. For such a file this returns the same bytes with the trailer's `/Encrypt` key
 * renamed: pdf.js then reads the pages, which were never encrypted; the attachment, which text
 * extraction never opens, stays sealed. Any other encryption returns undefined: the file really
 * needs its password.
 *
 * The encryption dictionary is never compressed or encrypted itself (PDF 1.7 §7.5.7), so it can be
 * read from the raw bytes.
 */
export function withoutAttachmentOnlyEncryption(bytes: Uint8Array): Uint8Array | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const dictionaries = encryptDictionaries(text);
  if (dictionaries.length === 0 || !dictionaries.every(encryptsOnlyAttachments)) return undefined;
  const patched = Buffer.from(text.replace(ENCRYPT_KEY, NEUTRAL_KEY), 'latin1');
  return patched.length === bytes.byteLength ? new Uint8Array(patched) : undefined;
}

/** Every encryption dictionary the file's trailers point at (an updated file has one per revision). */
function encryptDictionaries(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(ENCRYPT_KEY)) {
    const after = text.slice(match.index, match.index + MAX_DICTIONARY_CHARS);
    const ref = ENCRYPT_REF.exec(after);
    if (ref && ref.index === 0) {
      // The last definition of the object is the one in force (incremental updates append).
      const object = [...text.matchAll(new RegExp(`(?:^|[\\s>])${ref[1]}\\s+${ref[2]}\\s+obj\\b`, 'g'))].at(-1);
      if (!object) return [];
      const start = text.indexOf('<<', object.index);
      const dictionary = start < 0 ? undefined : balancedDictionary(text, start);
      if (!dictionary) return [];
      found.push(dictionary);
      continue;
    }
    const dictionary = balancedDictionary(text, text.indexOf('<<', match.index));
    if (!dictionary) return [];
    found.push(dictionary);
  }
  return found;
}

/** The `<< … >>` that opens at `start`, nested dictionaries included; undefined if it never closes. */
function balancedDictionary(text: string, start: number): string | undefined {
  let depth = 0;
  for (let i = start; i < text.length && i < start + MAX_DICTIONARY_CHARS; i++) {
    if (text.startsWith('<<', i)) {
      depth++;
      i++;
    } else if (text.startsWith('>>', i)) {
      depth--;
      i++;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Crypt filters (V 4 or 5) whose stream and string filters are both the identity. */
function encryptsOnlyAttachments(dictionary: string): boolean {
  // The top level is the part outside the nested /CF dictionaries.
  const topLevel = topLevelOf(dictionary);
  const version = Number(/\/V\s+(\d+)/.exec(topLevel)?.[1]);
  if (version !== 4 && version !== 5) return false;
  // Absent, both default to /Identity.
  const filter = (key: string) => new RegExp(`/${key}\\s*/(\\w+)`).exec(topLevel)?.[1] ?? 'Identity';
  return filter('StmF') === 'Identity' && filter('StrF') === 'Identity';
}

function topLevelOf(dictionary: string): string {
  let depth = 0;
  let out = '';
  for (let i = 0; i < dictionary.length; i++) {
    if (dictionary.startsWith('<<', i)) {
      depth++;
      i++;
      continue;
    }
    if (dictionary.startsWith('>>', i)) {
      depth--;
      i++;
      continue;
    }
    if (depth === 1) out += dictionary[i];
  }
  return out;
}
