import crypto from 'node:crypto';
import { assemblePdf, pdfString, rc4, stream } from './pdf-fixtures.ts';

/**
 * PDFs for what a text extractor is easy to get wrong, written by hand at test time like
 * pdf-fixtures.ts: CJK text in a CID font that needs a predefined CMap, filled form fields and a
 * FreeText annotation, and a file whose only encrypted part is an attachment.
 */

/** Catalog 1, Pages 2, one Helvetica font 3, then the page 4 and its content 5. */
function onePage(content: string, pageExtras = '', catalogExtras = ''): (string | Buffer)[] {
  return [
    `<< /Type /Catalog /Pages 2 0 R ${catalogExtras} >>`,
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R ${pageExtras} >>`,
    stream('', Buffer.from(content, 'latin1')),
  ];
}

export interface CjkFont {
  /** A predefined UCS-2 CMap, e.g. UniGB-UCS2-H; the text is written in its encoding. */
  encoding: string;
  /** A non-embedded CID font of the CMap's character collection, e.g. STSong-Light. */
  baseFont: string;
  ordering: 'GB1' | 'Japan1' | 'Korea1' | 'CNS1';
}

export const CJK_FONTS = {
  chinese: { encoding: 'UniGB-UCS2-H', baseFont: 'STSong-Light', ordering: 'GB1' },
  japanese: { encoding: 'UniJIS-UCS2-H', baseFont: 'KozMinPro-Regular', ordering: 'Japan1' },
  korean: { encoding: 'UniKS-UCS2-H', baseFont: 'HYSMyeongJo-Medium', ordering: 'Korea1' },
} as const satisfies Record<string, CjkFont>;

/**
 * One line of CJK text in a Type 0 font with a predefined CMap and no ToUnicode map, as
 * Acrobat-era and many office-suite CJK PDFs are: the reader must load the CMap to turn the
 * codes into characters.
 */
export function cjkPdf(text: string, font: CjkFont): Buffer {
  const codes = Buffer.from(text, 'utf16le').swap16().toString('hex');
  const content = `BT /F1 12 Tf 72 720 Td <${codes}> Tj ET`;
  return assemblePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      `<< /Type /Font /Subtype /Type0 /BaseFont /${font.baseFont}-${font.encoding} /Encoding /${font.encoding} /DescendantFonts [6 0 R] >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
      stream('', Buffer.from(content, 'latin1')),
      `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${font.baseFont} /CIDSystemInfo << /Registry (Adobe) /Ordering (${font.ordering}) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>`,
      `<< /Type /FontDescriptor /FontName /${font.baseFont} /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>`,
    ],
    '/Root 1 0 R',
  );
}

export interface FilledFormOptions {
  /** Printed on the page itself. */
  heading: string;
  /** Text fields: tooltip (/TU) shown as the label, and the filled value. */
  fields: { label: string; value: string }[];
  /** A FreeText annotation's text (a typed comment on the page). */
  comment: string;
}

/**
 * A filled certificate: only its heading is page content; the values live in form fields
 * (AcroForm widgets) and the reviewer's note in a FreeText annotation, none with an appearance
 * stream, as form fillers that leave rendering to the viewer write them.
 */
export function filledFormPdf(options: FilledFormOptions): Buffer {
  const first = 6;
  const ids = [...options.fields.map((_, i) => first + i), first + options.fields.length];
  const objects = onePage(
    `BT /F1 18 Tf 72 720 Td ${pdfString(options.heading)} Tj ET`,
    `/Annots [${ids.map((id) => `${id} 0 R`).join(' ')}]`,
    `/AcroForm << /Fields [${ids.slice(0, -1).map((id) => `${id} 0 R`).join(' ')}] /DA (/Helv 12 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>`,
  );
  options.fields.forEach((field, i) => {
    const y = 660 - i * 40;
    objects.push(
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (field${i + 1}) /TU ${pdfString(field.label)} /V ${pdfString(field.value)} /Rect [72 ${y} 400 ${y + 20}] /F 4 /P 4 0 R /DA (/Helv 12 Tf 0 g) >>`,
    );
  });
  objects.push(`<< /Type /Annot /Subtype /FreeText /Contents ${pdfString(options.comment)} /Rect [72 400 400 440] /F 4 /P 4 0 R /DA (/Helv 12 Tf 0 g) >>`);
  return assemblePdf(objects, '/Root 1 0 R');
}

// --- Standard Security Handler revision 4 (PDF 1.7 §7.6.3, algorithms 2, 3 and 5), 128-bit keys ---

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();
const pad = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PADDING]).subarray(0, 32);
const rehash50 = (hash: Buffer) => {
  let out = hash;
  for (let i = 0; i < 50; i++) out = md5(out.subarray(0, 16));
  return out.subarray(0, 16);
};
const rc4Rounds = (key: Buffer, data: Buffer) => {
  let out = rc4(key, data);
  for (let i = 1; i <= 19; i++) out = rc4(Buffer.from(key.map((b) => b ^ i)), out);
  return out;
};

/**
 * Pages, strings and metadata in the clear (crypt filter Identity) and only the attached file
 * encrypted (/EFF, opened on demand with /AuthEvent /EFOpen), as Acrobat's "encrypt only file
 * attachments" writes it. A reader needs `password` for the attachment, never for the pages.
 */
export function encryptedAttachmentPdf(password: string, lines: string[], attachment: string): Buffer {
  const id = crypto.randomBytes(16);
  const permissions = -4;
  const O = rc4Rounds(rehash50(md5(pad(`${password}-owner`))), pad(password));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = rehash50(md5(pad(password), O, p, id));
  const U = Buffer.concat([rc4Rounds(fileKey, md5(PADDING, id)), Buffer.alloc(16)]);

  const body = lines.map((line, i) => `${i === 0 ? '' : 'T* '}${pdfString(line)} Tj`).join('\n');
  const objects = onePage(`BT /F1 12 Tf 14 TL 72 720 Td\n${body}\nET`, '', '/Names << /EmbeddedFiles << /Names [(notes.txt) 6 0 R] >> >>');
  const fileNumber = 7;
  const objectKey = md5(fileKey, Buffer.from([fileNumber & 255, (fileNumber >> 8) & 255, (fileNumber >> 16) & 255, 0, 0]), Buffer.from('sAlT', 'latin1'));
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv('aes-128-cbc', objectKey, iv);
  const sealed = Buffer.concat([iv, cipher.update(Buffer.from(attachment, 'utf8')), cipher.final()]);
  objects.push('<< /Type /Filespec /F (notes.txt) /UF (notes.txt) /EF << /F 7 0 R >> >>');
  objects.push(stream('/Type /EmbeddedFile /Subtype /text#2Fplain', sealed));
  objects.push(
    `<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >> /StmF /Identity /StrF /Identity /EFF /StdCF /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${permissions} >>`,
  );
  return assemblePdf(objects, `/Root 1 0 R /Encrypt ${objects.length} 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`);
}
