import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor, type Extractor } from '../src/index.ts';
import { failure, html } from './helpers/extractor.ts';

let extractor: Extractor;
beforeAll(async () => {
  extractor = createExtractor({ size: 1 });
  await extractor.warm();
});
afterAll(() => extractor.close());

const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains the deployment in enough words that a reader-mode algorithm counts it as content and keeps it in the article body, with a <a href="../reference/#step-${n}">reference</a> and an <a href="https://other.example.org/page">outside link</a>.</p>`;

const ARTICLE = `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Deploying the bot | Example Docs</title>
  <meta name="author" content="Ada Lovelace">
  <script>window.tracking = "should never appear";</script>
  <style>.x { color: red }</style>
</head><body>
  <nav><a href="/">Home</a> <a href="/pricing">Pricing</a> Menu text that is navigation</nav>
  <article>
    <h1>Deploying the bot</h1>
    ${paragraph(1)}
    <h2>Prerequisites</h2>
    ${paragraph(2)}
    <ul>
      <li>Node.js <code>20.19</code> or newer</li>
      <li>A database
        <ul><li>PostgreSQL with pgvector</li><li>or the embedded one</li></ul>
      </li>
    </ul>
    <h3>Install</h3>
    <pre><code class="language-sh">npm install
npm start</code></pre>
    <blockquote><p>Keep the token secret.</p></blockquote>
    <table><tr><th>Setting</th><th>Default</th></tr><tr><td>PORT</td><td>3000</td></tr></table>
    ${paragraph(3)}
    <p>Links: <a href="#top">back to top</a>, <a href="javascript:alert(1)">a script</a>, <a href="mailto:a@example.com">mail</a>.</p>
  </article>
  <footer>Copyright footer</footer>
</body></html>`;

describe('HTML articles', () => {
  it('keeps title, byline and the structure the chunker needs', async () => {
    const doc = await extractor.extract({ bytes: html(ARTICLE), mimeType: 'text/html; charset=utf-8', url: 'https://docs.example.com/guide/deploy?x=1' });
    expect(doc.kind).toBe('html');
    expect(doc.title).toBe('Deploying the bot | Example Docs');
    expect(doc.byline).toBe('Ada Lovelace');
    expect(doc.truncated).toBe(false);

    const t = doc.text;
    expect(t).toContain('\n\n## Prerequisites\n\n');
    expect(t).toContain('\n\n### Install\n\n');
    expect(t).toContain('- Node.js `20.19` or newer\n- A database\n  - PostgreSQL with pgvector\n  - or the embedded one');
    expect(t).toContain('```sh\nnpm install\nnpm start\n```');
    expect(t).toContain('> Keep the token secret.');
    expect(t).toContain('Setting | Default\nPORT | 3000');
    // Link text stays inline, URLs do not.
    expect(t).toMatch(/with a reference and an outside link\./);
    expect(t).not.toContain('http');
    // Paragraphs are separated by blank lines.
    expect(t).toMatch(/content and keeps it in the article body, with a reference and an outside link\.\n\n## Prerequisites/);
    // Boilerplate and code never reach the text.
    for (const absent of ['should never appear', 'color: red', 'Menu text', 'Copyright footer']) expect(t).not.toContain(absent);
  });

  it('makes relative links absolute against the page and drops in-page, script and mail links', async () => {
    const doc = await extractor.extract({ bytes: html(ARTICLE), mimeType: 'text/html', url: 'https://docs.example.com/guide/deploy?x=1' });
    expect(doc.links).toEqual([
      'https://docs.example.com/reference/#step-1',
      'https://other.example.org/page',
      'https://docs.example.com/reference/#step-2',
      'https://docs.example.com/reference/#step-3',
    ]);
  });

  it('honours <base href> for relative links', async () => {
    const page = ARTICLE.replace('<meta charset="utf-8">', '<meta charset="utf-8"><base href="https://cdn.example.net/v2/">');
    const doc = await extractor.extract({ bytes: html(page), mimeType: 'text/html', url: 'https://docs.example.com/guide/deploy' });
    expect(doc.links[0]).toBe('https://cdn.example.net/reference/#step-1');
  });

  it('falls back to the whole body when Readability finds no article', async () => {
    const page = `<html><head><title>Links</title></head><body>
      <div><a href="/a">Alpha</a></div><div><a href="/b">Beta</a></div>
      <p>Short note.</p><script>var hidden = 1;</script></body></html>`;
    const doc = await extractor.extract({ bytes: html(page), mimeType: 'text/html', url: 'https://example.com/' });
    expect(doc.title).toBe('Links');
    expect(doc.text).toBe('Alpha\n\nBeta\n\nShort note.');
    expect(doc.links).toEqual(['https://example.com/a', 'https://example.com/b']);
  });

  it('decodes the charset declared in a <meta>, or the one the transport gave', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body><p>cr\xe8me br\xfbl\xe9e</p></body></html>', 'latin1');
    const fromMeta = await extractor.extract({ bytes: latin1, mimeType: 'text/html' });
    expect([fromMeta.title, fromMeta.text]).toEqual(['Café', 'crème brûlée']);
    const noMeta = Buffer.from('<p>na\xefve</p>', 'latin1');
    expect((await extractor.extract({ bytes: noMeta, mimeType: 'text/html; charset=windows-1252' })).text).toBe('naïve');
  });

  it('reads XHTML as HTML', async () => {
    const doc = await extractor.extract({
      bytes: html('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><h2>Part</h2><p>Body text.</p></body></html>'),
      mimeType: 'application/xhtml+xml',
    });
    expect(doc.text).toBe('## Part\n\nBody text.');
  });

  it('a page with no text fails EXTRACT_EMPTY with a next step', async () => {
    const error = await failure(extractor, { bytes: html('<html><body><div id="app"></div><script>render()</script></body></html>'), mimeType: 'text/html' });
    expect(error.code).toBe('EXTRACT_EMPTY');
    expect(error.nextStep).toMatch(/JavaScript/);
    expect(error.retryable).toBe(false);
  });

  it('never keeps NUL or control characters (PostgreSQL refuses NUL in text)', async () => {
    const doc = await extractor.extract({ bytes: html('<p>a\u0000b\u0007c\u001bd</p>'), mimeType: 'text/html' });
    expect(doc.text).toBe('abcd');
  });

  it('caps the text and says so', async () => {
    const doc = await extractor.extract({ bytes: html(ARTICLE), mimeType: 'text/html' }, { maxTextChars: 200 });
    expect(doc.truncated).toBe(true);
    expect(doc.text.length).toBeLessThanOrEqual(200);
  });
});
