import { Parser } from 'htmlparser2';
import { tooComplex } from '../extract-errors.ts';
import type { ExtractLimits } from '../types.ts';

class Refused extends Error {}

/**
 * A streaming pass over the markup before any DOM exists: counts elements and nesting depth and
 * refuses pathological pages (100,000 nested <div>s cost linkedom tens of seconds and can
 * overflow recursive code) in linear time and constant memory. The tokenizer applies HTML's
 * implied end tags (<p>, <li> …), so ordinary sloppy markup is not mistaken for deep nesting.
 */
export function guardHtml(html: string, limits: Pick<ExtractLimits, 'maxHtmlDepth' | 'maxHtmlElements'>): void {
  let depth = 0;
  let elements = 0;
  let refusal: Error | undefined;
  const parser = new Parser(
    {
      onopentagname() {
        depth++;
        elements++;
        if (depth > limits.maxHtmlDepth) {
          refusal = tooComplex(`elements nested more than ${limits.maxHtmlDepth} deep`, { maxDepth: limits.maxHtmlDepth });
          throw new Refused();
        }
        if (elements > limits.maxHtmlElements) {
          refusal = tooComplex(`more than ${limits.maxHtmlElements} elements`, { maxElements: limits.maxHtmlElements });
          throw new Refused();
        }
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false, recognizeSelfClosing: true },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error instanceof Refused && refusal) throw refusal;
    throw error;
  }
}
