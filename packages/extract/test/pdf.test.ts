import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import { createExtractor, type Extractor } from '../src/index.ts';
import { failure } from './helpers/extractor.ts';
import { assemblePdf, encryptedPdf, textlessPdf, textPdf } from '@brain/testkit';

let extractor: Extractor;
beforeAll(async () => {
  extractor = createExtractor({ size: 1 });
  await extractor.warm();
});
afterAll(() => extractor.close());

describe('PDF', () => {
  it('reads every page, title and author from the metadata, pages as paragraphs', async () => {
    const bytes = textPdf({
      title: 'Quarterly report',
      author: 'Grace Hopper',
      pages: [['Revenue grew in every region.', 'Costs stayed flat.'], ['Outlook (next quarter): stable.']],
    });
    const doc = await extractor.extract({ bytes, mimeType: 'application/pdf' });
    expect(doc).toEqual({
      kind: 'pdf',
      title: 'Quarterly report',
      byline: 'Grace Hopper',
      text: 'Revenue grew in every region.\nCosts stayed flat.\n\nOutlook (next quarter): stable.',
      links: [],
      truncated: false,
    });
  });

  it('has no title when the metadata has none', async () => {
    const doc = await extractor.extract({ bytes: textPdf({ pages: [['Untitled text']] }), mimeType: 'application/pdf' });
    expect([doc.title, doc.byline]).toEqual([null, null]);
  });

  it('stops at maxPdfPages and says the text is truncated', async () => {
    const pages = Array.from({ length: 5 }, (_, i) => [`Page number ${i + 1}`]);
    const doc = await extractor.extract({ bytes: textPdf({ pages }), mimeType: 'application/pdf' }, { maxPdfPages: 2 });
    expect(doc.text).toBe('Page number 1\n\nPage number 2');
    expect(doc.truncated).toBe(true);
  });

  it('a password-protected PDF fails EXTRACT_PDF_ENCRYPTED, not retryable', async () => {
    const bytes = encryptedPdf('s3cret', ['Confidential roadmap']);
    // The fixture is really encrypted (not merely broken): pdf.js reads it with the password.
    const parser = new PDFParse({ data: new Uint8Array(bytes), password: 's3cret', verbosity: 0, isEvalSupported: false, useWasm: false });
    expect((await parser.getText()).pages[0]?.text).toBe('Confidential roadmap');
    await parser.destroy();

    const error = await failure(extractor, { bytes, mimeType: 'application/pdf' });
    expect(error).toMatchObject({ code: 'EXTRACT_PDF_ENCRYPTED', retryable: false });
    expect(error.nextStep).toMatch(/without the password/);
  });

  it('a corrupt PDF fails EXTRACT_PDF_INVALID', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x5a)]);
    expect((await failure(extractor, { bytes, mimeType: 'application/pdf' })).code).toBe('EXTRACT_PDF_INVALID');
  });

  it('a PDF without a text layer (a scan) fails EXTRACT_EMPTY and says to OCR it', async () => {
    const error = await failure(extractor, { bytes: textlessPdf(), mimeType: 'application/pdf' });
    expect(error.code).toBe('EXTRACT_EMPTY');
    expect(error.nextStep).toMatch(/OCR/);
  });

  it('ignores JavaScript actions in the document', async () => {
    // A document-level JavaScript action: pdf.js must neither run it nor choke on it.
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 6 0 R >>',
      '<< /S /JavaScript /JS (globalThis.process.exit(3)) >>',
      '<< /Length 38 >>\nstream\nBT /F1 12 Tf 72 720 Td (Still here) Tj ET\nendstream',
    ];
    const doc = await extractor.extract({ bytes: assemblePdf(objects, '/Root 1 0 R'), mimeType: 'application/pdf' });
    expect(doc.text).toBe('Still here');
  });
});
