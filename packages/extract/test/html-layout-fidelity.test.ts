import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor, type Extractor } from '../src/index.ts';
import { html } from './helpers/extractor.ts';

let extractor: Extractor;
beforeAll(async () => {
  extractor = createExtractor({ size: 1 });
  await extractor.warm();
});
afterAll(() => extractor.close());

// Both paths: Readability's article view, and the whole-body fallback (small pages, huge pages).
const PATHS = [
  ['with Readability', {}],
  ['on the body fallback', { readabilityMaxElements: 0 }],
] as const;

const text = async (markup: string, limits: object) => (await extractor.extract({ bytes: html(markup), mimeType: 'text/html' }, limits)).text;

describe.each(PATHS)('HTML structure %s', (_, limits) => {
  it('keeps headings, paragraphs, lists and code inside a layout table cell', async () => {
    const page = '<table><tr><td><h2>T</h2><p>A.</p><ul><li>item two</li></ul><pre>x = 1</pre></td></tr></table>';
    expect(await text(page, limits)).toBe('## T\n\nA.\n\n- item two\n\n```\nx = 1\n```');
  });

  it('reads a page laid out in a two-column table as blocks, every heading kept', async () => {
    const page = `<table><tr>
      <td><h2>Menu</h2><ul><li>Home</li><li>Guide</li></ul></td>
      <td><h1>Install</h1><p>Run the installer.</p><h2>Upgrade</h2><p>Run it again.</p></td>
    </tr></table>`;
    expect(await text(page, limits)).toBe('## Menu\n\n- Home\n- Guide\n\n# Install\n\nRun the installer.\n\n## Upgrade\n\nRun it again.');
  });

  it('keeps a data table inside a layout table as rows', async () => {
    const page = `<table role="presentation"><tr><td><p>Settings:</p>
      <table><tr><th>Name</th><th>Default</th></tr><tr><td>PORT</td><td>3000</td></tr></table></td>
      <td><p>Side note.</p></td></tr></table>`;
    expect(await text(page, limits)).toBe('Settings:\n\nName | Default\nPORT | 3000\n\nSide note.');
  });

  it('keeps the line breaks of a <pre> written with <br>', async () => {
    expect(await text('<pre><code>a;<br>b;</code></pre>', limits)).toBe('```\na;\nb;\n```');
    expect(await text('<pre class="language-js">let a = 1;<br/>let b = 2;<br>a + b</pre>', limits)).toBe('```js\nlet a = 1;\nlet b = 2;\na + b\n```');
  });

  it('keeps a data-table row on one line when a cell holds a <br>', async () => {
    const page = '<table><tr><th>Name</th><th>Value</th></tr><tr><td>first<br>second</td><td>c</td></tr><tr><td>d</td><td>e</td></tr></table>';
    expect(await text(page, limits)).toBe('Name | Value\nfirst second | c\nd | e');
  });

  it('drops the permalink glyph a documentation generator puts beside headings and definitions', async () => {
    const page = `<h2>Basic Usage<a class="headerlink" href="#basic-usage" title="Permalink to this headline">¶</a></h2>
      <dl><dt id="json.dumps">json.dumps(obj)<a class="headerlink" href="#json.dumps">¶</a></dt><dd><p>Serialize obj.</p></dd></dl>
      <h3><a class="anchor" href="#setup">#</a> Setup</h3><p>See <a href="#basic-usage">Basic Usage</a> and section <a href="#s2">§ 2</a>.</p>`;
    expect(await text(page, limits)).toBe('## Basic Usage\n\njson.dumps(obj)\n\nSerialize obj.\n\n### Setup\n\nSee Basic Usage and section § 2.');
  });

  it('drops icon-font glyphs, and a tab label made only of them, so a sentence stays beside its code', async () => {
    const page = `<article><h2>Reversing migrations</h2><p>Migrations can be reversed. To reverse migration books.0003:</p><div class="console-block">
      <input type="radio" checked><label title="Linux/macOS">&#xf17c;/&#xf179;</label>
      <input type="radio"><label title="Windows">&#xf17a;</label>
      <section><pre>$ python manage.py migrate books 0002&#xf101;</pre></section></div>
      <p><i class="icon">&#xe900;</i> Tip: run it twice&#xf0b7;.</p></article>`;
    const got = await text(page, limits);
    expect(got).toContain('To reverse migration books.0003:\n\n```\n$ python manage.py migrate books 0002\n```\n\nTip: run it twice.');
    expect(got).not.toMatch(/\p{Co}|^\/$/mu);
  });

  it('reads an admonition’s title with the paragraph under it', async () => {
    const page = `<p>Intro.</p><div class="admonition note"><p class="admonition-title">Note</p><p>Call it from the <em>main</em> thread.</p></div>
      <div class="admonition seealso"><p class="admonition-title">See also</p><dl><dt>Module copy</dt></dl></div>`;
    expect(await text(page, limits)).toBe('Intro.\n\nNote: Call it from the main thread.\n\nSee also\n\nModule copy');
  });
  it('reads the spellings of one command-line option, each its own <dt>, as one term line', async () => {
    const page = `<dl><dt class="hdlist1">
-k
</dt><dt class="hdlist1">
--keep-index
</dt><dt class="hdlist1">
--no-keep-index
</dt><dd><p>All changes already added to the index are left intact.</p></dd>
      <dt>range(stop)</dt><dt>range(start, stop)</dt><dd><p>A sequence of numbers.</p></dd></dl>`;
    expect(await text(page, limits)).toBe(
      '-k, --keep-index, --no-keep-index\n\nAll changes already added to the index are left intact.\n\nrange(stop)\n\nrange(start, stop)\n\nA sequence of numbers.',
    );
  });
});
