import type { Passage } from '../types.ts';
import { allowedUrlsOf, neutraliseMentions, removeUnlistedLinks, stripInvisibleControls } from './output-safety.ts';
import { fabricatedQuoteSentences } from './quotes.ts';

export interface CitedPassage {
  /** The number the cleaned text uses: 1, 2, 3 … in order of first use. */
  n: number;
  /** The passage's number in the request (what the answerer was shown). */
  passageN: number;
}

export interface ValidateOptions {
  /**
   * Also allow links written inside the cited passages (default false: only the cited sources'
   * own addresses). For extractive answers, which quote the server's saved text verbatim and
   * contain nothing a model composed.
   */
  allowLinksInPassages?: boolean;
  /**
   * Each line that opens with "> " is a verbatim quotation followed by its one marker (extractive
   * answers): only that last marker is a citation. Brackets inside the quotation are the page's own
   * text: "json_set('[0,1,2]','$[#]','new')" read as markers became "json_set('[1][4]', …)".
   */
  quotedLines?: boolean;
}

export interface CitationCheck {
  text: string;
  /** Cited passages in order of first use; empty when the answer cites nothing valid. */
  cited: CitedPassage[];
  /** Citation markers that referred to no passage of this request ("[0]", "[99]"). */
  removedMarkers: string[];
  /** Quotations attributed to a passage that does not contain them; their sentences were removed. */
  removedQuotes: string[];
}

// [3], [1, 2], [1-3], [^2], [passage 2], [source 4; 5]: the forms models actually write.
const MARKER = /\[\^?\s*(?:(?:passages?|sources?|docs?|documents?|refs?)\s*#?\s*)?(\d{1,4}(?:\s*(?:,|;|-|–|and)\s*\d{1,4})*)\s*\]/gi;
const MAX_RANGE = 20;
// Code is left exactly as written: `items[0]` in a snippet is not a citation.
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
const PLACEHOLDER = /\ue000(\d+)\ue001/g;
// "> quoted text [3]": the quotation, then the one marker that ends its line.
const QUOTED_LINE = /^(> )(.*?)(\s\[\d{1,4}\])$/gm;

/**
 * Makes an answer safe to show: every `[n]` must name a passage retrieved for this request
 * (others are removed, lists and ranges are split into single markers), a quotation attributed to
 * `[n]` must be found in passage n (otherwise its sentence is removed), and citations are
 * renumbered 1, 2, 3 … in order of first use, so the sources list under the answer has no gaps.
 * Then mass mentions are neutralised and links other than the cited sources' are removed.
 */
export function validateCitations(text: string, passages: readonly Passage[], options: ValidateOptions = {}): CitationCheck {
  const byN = new Map(passages.map((p) => [p.n, p]));
  const code: string[] = [];
  const mask = (block: string) => `\ue000${code.push(block) - 1}\ue001`;
  let prose = stripInvisibleControls(text).replace(CODE, mask);
  if (options.quotedLines) prose = prose.replace(QUOTED_LINE, (_line, open: string, quote: string, marker: string) => `${open}${mask(quote)}${marker}`);
  // A quotation can hold code masked before it: unmasked until none is left.
  const unmask = (s: string): string => {
    const once = s.replace(PLACEHOLDER, (_m, i: string) => code[Number(i)] ?? '');
    return once === s ? s : unmask(once);
  };

  const removedMarkers: string[] = [];
  prose = prose.replace(MARKER, (marker, list: string) => {
    const numbers = expand(list);
    const valid = numbers.filter((n) => byN.has(n));
    if (numbers.length === 0 || valid.length < numbers.length) removedMarkers.push(marker);
    return [...new Set(valid)].map((n) => `[${n}]`).join('');
  });

  const fabricated = fabricatedQuoteSentences(prose, (quote) => unmask(quote), byN);
  for (const sentence of fabricated.sentences) prose = prose.replace(sentence, '');

  const order = new Map<number, number>();
  prose = prose.replace(/\[(\d+)\]/g, (_m, digits: string) => {
    const passageN = Number(digits);
    if (!order.has(passageN)) order.set(passageN, order.size + 1);
    return `[${order.get(passageN) ?? 0}]`;
  });
  prose = tidy(prose.replace(/(\[\d+\])(?:\s*\1)+/g, '$1'));

  const cited = [...order].map(([passageN, n]) => ({ n, passageN }));
  const citedSources = cited.flatMap((c) => {
    const p = byN.get(c.passageN);
    return p ? [{ url: p.url, content: options.allowLinksInPassages ? p.content : '' }] : [];
  });
  const safe = neutraliseMentions(removeUnlistedLinks(unmask(prose), allowedUrlsOf(citedSources)));
  return { text: safe, cited, removedMarkers, removedQuotes: fabricated.quotes.map(unmask) };
}

function expand(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(/\s*(?:,|;|and)\s*/)) {
    const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to >= from && to - from < MAX_RANGE) for (let n = from; n <= to; n++) out.push(n);
      continue;
    }
    if (/^\d+$/.test(part)) out.push(Number(part));
  }
  return out;
}

/** Removing markers and sentences leaves gaps: " ." becomes ".", runs of spaces one space. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
