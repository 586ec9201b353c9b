import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * Small PDFs written by hand at test time (nothing downloaded, nothing binary committed): plain
 * text pages, a decompression bomb, an RC4-encrypted file, a corrupt one. Each object is the
 * text between `N 0 obj` and `endobj`; offsets and the xref table are computed here.
 */
export function assemblePdf(objects: (string | Buffer)[], trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof object === 'string' ? Buffer.from(object, 'latin1') : object,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

export function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

export function pdfString(text: string): string {
  return `(${text.replace(/([\\()])/g, '\\$1')})`;
}

function pageContent(lines: string[]): Buffer {
  const body = lines.map((line, i) => (i === 0 ? `${pdfString(line)} Tj` : `T* ${pdfString(line)} Tj`)).join('\n');
  return Buffer.from(`BT /F1 12 Tf 14 TL 72 720 Td\n${body}\nET`, 'latin1');
}

/** Catalog 1, Pages 2, Font 3, Info 4, then a page and its content per page. */
function documentObjects(pageContents: Buffer[], info: string, contentFilter?: string): (string | Buffer)[] {
  const objects: (string | Buffer)[] = [];
  const pageIds = pageContents.map((_, i) => 5 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push(info);
  pageContents.forEach((content, i) => {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`);
    objects.push(stream(contentFilter ? `/Filter ${contentFilter}` : '', content));
  });
  return objects;
}

export interface TextPdfOptions {
  title?: string;
  author?: string;
  pages: string[][];
}

export function textPdf(options: TextPdfOptions): Buffer {
  const info = `<< ${options.title ? `/Title ${pdfString(options.title)}` : ''} ${options.author ? `/Author ${pdfString(options.author)}` : ''} /Producer (brain test fixtures) >>`;
  const contents = options.pages.map((lines) => zlib.deflateSync(pageContent(lines)));
  return assemblePdf(documentObjects(contents, info, '/FlateDecode'), '/Root 1 0 R /Info 4 0 R');
}

/** One page whose content stream inflates to `inflatedBytes` of spaces through two Flate layers. */
export async function bombPdf(inflatedBytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  for (let written = 0; written < inflatedBytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const twice = zlib.deflateSync(Buffer.concat(out), { level: 9 });
  return assemblePdf(documentObjects([twice], '<< /Title (Totally normal report) >>', '[/FlateDecode /FlateDecode]'), '/Root 1 0 R /Info 4 0 R');
}

// --- RC4-40 Standard Security Handler, revision 2 (PDF 1.7 §7.6.3, algorithms 2, 3 and 4) ---

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();
const pad = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PADDING]).subarray(0, 32);

/** A real encrypted PDF: readable with `userPassword`, not without it. */
export function encryptedPdf(userPassword: string, lines: string[]): Buffer {
  const id = crypto.randomBytes(16);
  const permissions = -4;
  const ownerKey = md5(pad(`${userPassword}-owner`)).subarray(0, 5);
  const O = rc4(ownerKey, pad(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = md5(pad(userPassword), O, p, id).subarray(0, 5);
  const U = rc4(fileKey, PADDING);
  const objectKey = (num: number) => md5(fileKey, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = rc4(objectKey(6), zlib.deflateSync(pageContent(lines)));
  const title = rc4(objectKey(4), Buffer.from('Secret plans', 'latin1'));
  const objects = documentObjects([content], `<< /Title <${title.toString('hex')}> >>`, '/FlateDecode');
  objects.push(`<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${permissions} >>`);
  return assemblePdf(objects, `/Root 1 0 R /Info 4 0 R /Encrypt ${objects.length} 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`);
}

/** A page with no text at all, as a scanner would produce (minus the image). */
export function textlessPdf(): Buffer {
  return assemblePdf(documentObjects([Buffer.from('0 0 1 rg 72 72 468 648 re f', 'latin1')], '<< >>'), '/Root 1 0 R /Info 4 0 R');
}
