import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor, type Extractor } from '../src/index.ts';
import { html } from './helpers/extractor.ts';

let extractor: Extractor;
beforeAll(async () => {
  extractor = createExtractor({ size: 1 });
  await extractor.warm();
});
afterAll(() => extractor.close());

const text = async (markup: string, limits: object = {}) => (await extractor.extract({ bytes: html(markup), mimeType: 'text/html' }, limits)).text;

// A configuration reference as DocBook's stylesheets write it (the PostgreSQL manual): one long
// section of settings, then shorter ones. Readability keeps the long one and drops the others,
// since they score under a fifth of it.
const setting = (name: string, i: number) =>
  `<dt id="GUC-${name.toUpperCase()}"><span class="term"><code class="varname">${name}</code> (<code class="type">integer</code>)</span></dt>` +
  `<dd><p>Sets how many ${name} units the server keeps for work item ${i}. The default is ${i * 8} units. This parameter can only be set in the configuration file or on the server command line.</p></dd>`;
const sections = (names: readonly string[][]) =>
  names
    .map((list, s) => `<div class="sect2"><div class="titlepage"><h3 class="title">19.5.${s + 1}. Part ${s + 1}</h3></div><div class="variablelist"><dl class="variablelist">${list.map(setting).join('')}</dl></div></div>`)
    .join('');
const long = Array.from({ length: 16 }, (_, i) => `wal_setting_${i}`);
const content = sections([long, ['checkpoint_slots', 'checkpoint_spread'], ['archive_slots', 'archive_retries']]);

describe('a page that declares its content', () => {
  it('reads every section of a DocBook page, without the navigation around it', async () => {
    const page = `<!DOCTYPE html><html><head><title>19.5. Write Ahead Log</title><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" /></head><body>
      <div class="navheader"><table><tr><th>19.5. Write Ahead Log</th></tr><tr><td><a href="a.html">Prev</a></td><td><a href="b.html">Next chapter</a></td></tr></table></div>
      <div class="sect1"><div class="titlepage"><h2 class="title">19.5. Write Ahead Log</h2></div>${content}</div>
      <div class="navfooter"><table><tr><td><a href="a.html">Prev</a></td><td><a href="index.html">Home</a></td></tr></table></div>
    </body></html>`;
    const got = await text(page);
    expect(got).toContain('### 19.5.2. Part 2');
    expect(got).toContain('`archive_retries` (`integer`)');
    expect(got).toContain('The default is 8 units.');
    expect(got).not.toMatch(/Prev|Next chapter|Home/);
  });

  it('reads all of a page’s one <main> when Readability keeps much less of it, leaving its navigation out', async () => {
    const page = `<!DOCTYPE html><html><head><title>Settings</title></head><body>
      <header><a href="/">Site home</a></header>
      <main><nav><a href="#p1">Jump to part one</a></nav><h2>Settings</h2>${content}</main>
      <footer>Copyright notice</footer>
    </body></html>`;
    const got = await text(page);
    expect(got).toContain('`checkpoint_spread` (`integer`)');
    expect(got).toContain('`archive_retries` (`integer`)');
    expect(got).not.toMatch(/Jump to part one|Site home|Copyright notice/);
  });

  it('reads a DocBook admonition’s title with its paragraph, not as a heading that renames the section', async () => {
    const page = `<!DOCTYPE html><html><head><title>8.1. Numeric Types</title><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" /></head><body>
      <div class="sect1"><h2 class="title">8.1. Numeric Types</h2>
      <div class="sect2"><h3 class="title">8.1.4. Serial Types</h3>
      <div class="note"><h3 class="title">Note</h3><p>This section describes a PostgreSQL-specific way to create an autoincrementing column.</p></div>
      <p>The data types smallserial, serial and bigserial are not true types, but merely a notational convenience for creating unique identifier columns.</p></div></div>
    </body></html>`;
    const got = await text(page);
    expect(got).toContain('Note: This section describes a PostgreSQL-specific way');
    expect(got).not.toMatch(/^#+ Note$/m);
    // The paragraph after the note stays under its own section's heading.
    expect(got.slice(got.indexOf('8.1.4. Serial Types'))).toContain('are not true types');
  });
  // Also when the page is too large for Readability, whose whole-body fallback read the footer too.
  it.each([
    ['with Readability', {}],
    ['too large for Readability', { readabilityMaxElements: 0 }],
  ])('reads every section of an AsciiDoc man page with its NAME line, without the title repeated or the footer (%s)', async (_, limits) => {
    // As AsciiDoc writes Git's manual: a header with the title again and the NAME line, one long
    // OPTIONS section, then short ones, which Readability drops beside the long one.
    const option = (i: number) =>
      `<dt class="hdlist1">--frob-level-${i}</dt><dd><p>Frobs the index at level ${i} before the commit is recorded, so that the frobbed entries of level ${i} are kept in the tree of that commit and shown by later commands.</p></dd>`;
    const section = (title: string, body: string) => `<div class="sect1"><h2 id="_${title.toLowerCase()}">${title}</h2><div class="sectionbody">${body}</div></div>`;
    const page = `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
      <html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="generator" content="AsciiDoc 10.2.0" /><title>git-frob(1)</title></head><body class="manpage">
      <div id="header"><h1>git-frob(1) Manual Page</h1><h2>NAME</h2><div class="sectionbody"><p>git-frob - Frob the index before a commit</p></div></div>
      <div id="content">
      ${section('SYNOPSIS', '<div class="verseblock"><pre class="content"><em>git frob</em> [--frob-level-&lt;n&gt;]</pre></div>')}
      ${section('OPTIONS', `<div class="dlist"><dl>${Array.from({ length: 16 }, (_, i) => option(i)).join('')}</dl></div>`)}
      ${section('CONFIGURATION', '<div class="paragraph"><p>The frob.maxLevel variable caps the level; it defaults to 7.</p></div>')}
      ${section('EXIT STATUS', '<div class="paragraph"><p>Exits with status 3 when nothing was frobbed.</p></div>')}
      </div>
      <div id="footnotes"><hr /></div>
      <div id="footer"><div id="footer-text">Last updated 2023-01-01 12:00:00 UTC</div></div>
    </body></html>`;
    const got = await text(page, limits);
    expect(got).toContain('git-frob - Frob the index before a commit');
    expect(got).toContain('it defaults to 7.');
    expect(got).toContain('Exits with status 3 when nothing was frobbed.');
    expect(got).toContain('--frob-level-15');
    expect(got).not.toContain('Manual Page');
    expect(got).not.toContain('Last updated');
  });

  // Doxygen (C and C++ API references): Readability keeps a class's detailed description and drops
  // every member's documentation after it.
  it('reads a Doxygen page’s members, without its banner, tree view, breadcrumb and footer', async () => {
    const member = (name: string, i: number) =>
      `<h2 class="memtitle"><span class="permalink"><a href="#m${i}">&#9670;&#160;</a></span>${name}()</h2>` +
      `<div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">void ${name}</td><td>(</td><td>)</td></tr></table></div>` +
      `<div class="memdoc"><p>Member ${i} documentation: calls ${name} once per element.</p></div></div>`;
    const description = Array.from({ length: 6 }, (_, i) => `<p>The mini vector is a stripped down vector for built-in types, paragraph ${i}, with the caveats that follow and the guarantees it keeps.</p>`).join('');
    const page = `<!DOCTYPE html><html><head><title>libstdc++: mini_vector Class Reference</title><meta name="generator" content="Doxygen 1.9.4"/></head><body>
      <div id="top"><div id="titlearea"><div id="projectname">Project banner</div></div></div>
      <div id="side-nav"><div id="nav-tree"><a href="index.html">Tree view entry</a></div></div>
      <div id="doc-content">
        <div class="header"><div class="summary"><a href="#pub-methods">Public Member Functions</a> | <a href="all.html">List of all members</a></div>
          <div class="headertitle"><div class="title">mini_vector Class Reference</div></div></div>
        <div class="contents"><a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2><div class="textblock">${description}</div>
          <h2 class="groupheader">Member Function Documentation</h2>${['push_back', 'pop_back', 'erase', 'insert'].map(member).join('')}</div>
      </div>
      <div id="nav-path" class="navpath"><ul><li class="navelem"><a href="ns.html">Breadcrumb namespace</a></li><li class="footer">Generated by doxygen</li></ul></div>
    </body></html>`;
    const got = await text(page);
    expect(got).toContain('mini_vector Class Reference');
    expect(got).toContain('Member 3 documentation: calls insert once per element.');
    expect(got).toContain('## push_back()');
    expect(got).not.toMatch(/Project banner|Tree view entry|List of all members|Breadcrumb namespace|Generated by doxygen|◆/);
  });
});
