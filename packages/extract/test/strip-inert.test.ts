import { describe, expect, it } from 'vitest';
import { stripInert } from '../src/html/strip-inert.ts';

describe('stripInert', () => {
  it('cuts scripts, styles, SVG, templates and comments, keeping everything else', () => {
    const html = '<p>a</p><SCRIPT src=x>var s = "</p>";</script ><style>p{}</style><svg><svg></svg></svg><!-- c --><template><p>t</p></template><p>b</p>';
    expect(stripInert(html)).toBe('<p>a</p></svg><p>b</p>');
  });

  it('keeps JSON-LD metadata and tags that merely start like an inert one', () => {
    const html = '<script type="application/ld+json">{"author":"A"}</script><scripture>x</scripture><styled>y</styled>';
    expect(stripInert(html)).toBe(html);
  });

  it('an unclosed inert element runs to the end, as in a browser', () => {
    expect(stripInert('<p>a</p><script>never closed <p>b</p>')).toBe('<p>a</p>');
    expect(stripInert('<p>a</p><!-- never closed')).toBe('<p>a</p>');
  });

  it('is linear on hostile input: near-miss tags, unclosed scripts and comments by the hundred thousand', () => {
    for (const unit of ['<scrip', '<p><script x', '<!-', '<svg']) {
      const hostile = unit.repeat(200_000);
      const started = performance.now();
      stripInert(hostile);
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });
});
