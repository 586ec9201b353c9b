import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import { CJK_FONTS, cjkPdf, encryptedAttachmentPdf, encryptedPdf, filledFormPdf } from '@brain/testkit';
import { createExtractor, type Extractor } from '../src/index.ts';
import { withoutAttachmentOnlyEncryption } from '../src/pdf/attachment-encryption.ts';
import { failure } from './helpers/extractor.ts';

let extractor: Extractor;
beforeAll(async () => {
  extractor = createExtractor({ size: 1 });
  await extractor.warm();
});
afterAll(() => extractor.close());

const pdf = (bytes: Buffer) => ({ bytes, mimeType: 'application/pdf' });
const bare = (bytes: Buffer, password?: string) => new PDFParse({ data: new Uint8Array(bytes), password, verbosity: 0, isEvalSupported: false, useWasm: false });

describe('PDF text that is easy to lose', () => {
  it.each([
    ['chinese', '数据库的默认端口是五四三二。', CJK_FONTS.chinese],
    ['japanese', 'データベースの既定ポートは五四三二です。', CJK_FONTS.japanese],
    ['korean', '데이터베이스 기본 포트는 오사삼이입니다.', CJK_FONTS.korean],
  ])('reads %s text in a CID font with a predefined CMap (no ToUnicode)', async (_, line, font) => {
    const bytes = cjkPdf(line, font);
    // Without CMap data pdf.js reads nothing from this file: the case the extractor must not hit.
    const parser = bare(bytes);
    expect((await parser.getText()).pages[0]?.text.trim()).toBe('');
    await parser.destroy();

    expect((await extractor.extract(pdf(bytes))).text).toBe(line);
  });

  it('reads filled form fields (with their labels) and FreeText comments after the page text', async () => {
    const bytes = filledFormPdf({
      heading: 'Certificate of completion',
      fields: [
        { label: 'Recipient', value: 'Ada Lovelace' },
        { label: 'Course', value: 'Analytical engines' },
      ],
      comment: 'Verified by the registrar on 10 December.',
    });
    const doc = await extractor.extract(pdf(bytes));
    expect(doc.text).toBe('Certificate of completion\nRecipient: Ada Lovelace\nCourse: Analytical engines\nVerified by the registrar on 10 December.');
  });

  it('reads the pages of a PDF whose only encrypted part is its attachment', async () => {
    const bytes = encryptedAttachmentPdf('s3cret', ['Release notes for 4.2', 'The attachment holds the keys.'], 'api-key: do-not-read');
    // The fixture is really encrypted: pdf.js refuses it without the password and opens it with it.
    const locked = bare(bytes);
    await expect(locked.getText()).rejects.toMatchObject({ name: 'PasswordException' });
    await locked.destroy();
    const unlocked = bare(bytes, 's3cret');
    expect((await unlocked.getText()).pages[0]?.text).toBe('Release notes for 4.2\nThe attachment holds the keys.');
    await unlocked.destroy();

    const doc = await extractor.extract(pdf(bytes));
    expect(doc.text).toBe('Release notes for 4.2\nThe attachment holds the keys.');
    expect(doc.text).not.toContain('do-not-read');
  });

  it('still refuses a PDF whose pages are encrypted: EXTRACT_PDF_ENCRYPTED', async () => {
    expect((await failure(extractor, pdf(encryptedPdf('s3cret', ['Confidential'])))).code).toBe('EXTRACT_PDF_ENCRYPTED');
  });
});

describe('withoutAttachmentOnlyEncryption', () => {
  const sample = encryptedAttachmentPdf('pw', ['Page text'], 'secret');
  it('clears only a file whose streams and strings are in the clear, keeping every byte offset', () => {
    const cleared = withoutAttachmentOnlyEncryption(sample);
    expect(cleared?.byteLength).toBe(sample.byteLength);
    expect(Buffer.from(cleared as Uint8Array).toString('latin1')).not.toMatch(/\/Encrypt\s+\d+ 0 R/);
  });
  it.each([
    ['streams encrypted', '/StmF /Identity', '/StmF /StdCF'],
    ['strings encrypted', '/StrF /Identity', '/StrF /StdCF'],
    ['RC4 (V 2) encryption', '/V 4 /R 4', '/V 2 /R 3'],
  ])('leaves a file with %s to the password', (_, from, to) => {
    expect(withoutAttachmentOnlyEncryption(Buffer.from(sample.toString('latin1').replace(from, to), 'latin1'))).toBeUndefined();
  });
});
