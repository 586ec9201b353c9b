import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { keptRun, type RunElement } from '../src/html/kept-run.ts';

type Doc = { querySelectorAll(selector: string): ArrayLike<RunElement> };

/** A parsed page's elements in document order, and the positions of the elements named by id. */
function page(body: string): { elements: RunElement[]; positions: (...ids: string[]) => number[] } {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`) as unknown as { document: Doc };
  const elements = Array.from(document.querySelectorAll('*'));
  const positions = (...ids: string[]) => ids.map((id) => elements.findIndex((el) => el.getAttribute?.('id') === id));
  return { elements, positions };
}

const idOf = (el: RunElement | undefined) => el?.getAttribute?.('id');
const prose = (topic: string) => `<p>The reference explains ${topic} with an example and the exceptions that apply to it.</p>`;
const sidebar = `<div id="sidebar"><h3>Contents</h3><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="#s${i}">Sidebar entry ${i}</a></li>`).join('')}</ul></div>`;

describe('the run of sections around what Readability kept', () => {
  it('climbs from a definition deep in nested sections to their container, not into the sidebar beside it', () => {
    const { elements, positions } = page(`<div id="bd"><div id="main"><div id="content">
      <div class="section" id="top"><h1>GDAL API</h1>${prose('the library')}
        <div class="section" id="geometries"><h2>Geometries</h2><dl><dt>OGRGeometry</dt><dd id="kept">${prose('geometries')}</dd></dl></div>
        <div class="section" id="settings"><h2>Settings</h2>${prose('settings')}</div>
      </div></div></div>${sidebar}</div>`);
    expect(idOf(keptRun(elements, positions('kept')))).toBe('content');
  });

  it('takes the parent of sibling sections, and stops below a table of contents', () => {
    const { elements, positions } = page(`<div id="column"><div id="toc"><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="#e${i}">Contents link ${i}</a></li>`).join('')}</ul></div>
      <div id="apicontent"><section id="one"><h2>Propagation</h2>${prose('propagation')}</section><section id="two"><h2>Codes</h2>${prose('codes')}</section><section id="three"><h2>Classes</h2>${prose('classes')}</section></div></div>`);
    expect(idOf(keptRun(elements, positions('two', 'three')))).toBe('apicontent');
  });

  it('takes the sections inside a wrapper Readability kept and cleaned, and never the wrapper’s sidebar', () => {
    const { elements, positions } = page(`<div id="bd"><div id="main"><div id="content">
      <div class="section" id="views"><h1>Generic display views</h1>${prose('display views')}
        <div class="section" id="detail"><h2>DetailView</h2>${prose('DetailView')}</div>
        <div class="section" id="list"><h2>ListView</h2>${prose('ListView')}</div>
      </div></div></div>${sidebar}</div>`);
    expect(idOf(keptRun(elements, positions('bd')))).toBe('content');
  });

  it('finds no run where nothing kept is a section, in one, or holds one', () => {
    const { elements, positions } = page(`<div id="page"><div id="story">${prose('the council')}${prose('the budget')}</div><div id="player"><ul><li>Playback rate</li><li>Chapters</li></ul></div></div>`);
    expect(keptRun(elements, positions('story'))).toBeUndefined();
  });

  it('stops where an ancestor adds mostly links, not where it adds prose', () => {
    const links = `<ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/${i}">Footer link ${i}</a></li>`).join('')}</ul>`;
    const withLinks = page(`<div id="wrap"><section id="only"><h2>Only</h2>${prose('one thing')}</section>${links}</div>`);
    expect(idOf(keptRun(withLinks.elements, withLinks.positions('only')))).toBe('only');
    const withProse = page(`<div id="wrap"><section id="only"><h2>Only</h2>${prose('one thing')}</section>${prose('another thing')}</div>`);
    expect(idOf(keptRun(withProse.elements, withProse.positions('only')))).toBe('wrap');
  });

  it('never climbs to the body', () => {
    const { elements, positions } = page(`<section id="only"><h2>Only</h2>${prose('one thing')}</section>${prose('another thing')}`);
    expect(idOf(keptRun(elements, positions('only')))).toBe('only');
  });
});
