import type { TokenCounter } from './estimate-tokens.ts';
import type { Block } from './parse-sections.ts';
import { splitSentences } from './split-sentences.ts';

/** The unit packing works with: a block, an item, a sentence, or a hard-cut fragment. */
export interface Piece {
  text: string;
  tokens: number;
  /** Put before this piece when it follows another in the same chunk: a block break, a line, a space. */
  joiner: '\n\n' | '\n' | ' ';
  /**
   * What the next chunk may repeat of this piece as overlap: trailing sentences of prose, an item
   * only whole, and never code or a fragment cut from an over-long sentence.
   */
  overlap: 'sentences' | 'whole' | 'none';
}

/**
 * Splits a block only as far as the budget requires: the whole block when it fits; otherwise its
 * items, lines of code, or sentences; a hard cut only for one sentence (or one code line) that is
 * over the budget on its own.
 */
export function blockToPieces(block: Block, maxTokens: number, tokens: TokenCounter): Piece[] {
  switch (block.kind) {
    case 'prose':
      return proseToPieces(block.text, maxTokens, '\n\n', tokens);
    case 'items':
      return block.items.flatMap((item, i) => {
        const joiner = i === 0 ? '\n\n' : '\n';
        const itemTokens = tokens.count(item);
        if (itemTokens <= maxTokens) return [{ text: item, tokens: itemTokens, joiner, overlap: 'whole' } satisfies Piece];
        return proseToPieces(item, maxTokens, joiner, tokens);
      });
    case 'code':
      return codeToPieces(block, maxTokens, tokens);
  }
}

export function proseToPieces(text: string, maxTokens: number, joiner: Piece['joiner'], tokens: TokenCounter): Piece[] {
  const textTokens = tokens.count(text);
  if (textTokens <= maxTokens) return [{ text, tokens: textTokens, joiner, overlap: 'sentences' }];
  const pieces: Piece[] = [];
  for (const sentence of splitSentences(text)) {
    const first = pieces.length === 0;
    const sentenceTokens = tokens.count(sentence);
    if (sentenceTokens <= maxTokens) {
      pieces.push({ text: sentence, tokens: sentenceTokens, joiner: first ? joiner : ' ', overlap: 'sentences' });
      continue;
    }
    for (const fragment of hardCut(sentence, maxTokens, tokens)) {
      pieces.push({ ...fragment, joiner: pieces.length === 0 ? joiner : ' ', overlap: 'none' });
    }
  }
  return pieces;
}

/**
 * A code block that fits stays whole. A longer one is split between lines, and every part keeps
 * the fences so it still reads (and renders) as code; a single line over the budget is cut.
 */
function codeToPieces(block: Extract<Block, { kind: 'code' }>, maxTokens: number, tokens: TokenCounter): Piece[] {
  if (block.lines.every((line) => line.trim() === '')) return [];
  const wrap = (body: string) => `${block.open}\n${body}\n${block.close}`;
  const whole = wrap(block.lines.join('\n'));
  const wholeTokens = tokens.count(whole);
  if (wholeTokens <= maxTokens) return [{ text: whole, tokens: wholeTokens, joiner: '\n\n', overlap: 'none' }];

  const fenceTokens = tokens.count(block.open) + tokens.count(block.close);
  // With a tiny budget the fences would crowd out the code: then the parts go unwrapped.
  const wrapped = fenceTokens <= maxTokens / 4;
  const budget = wrapped ? maxTokens - fenceTokens : maxTokens;
  const parts: string[] = [];
  let lines: string[] = [];
  let used = 0;
  const flush = () => {
    if (lines.some((line) => line.trim() !== '')) parts.push(lines.join('\n'));
    lines = [];
    used = 0;
  };
  for (const line of block.lines) {
    const lineTokens = tokens.count(line);
    if (lineTokens > budget) {
      flush();
      for (const fragment of hardCut(line, budget, tokens)) parts.push(fragment.text);
      continue;
    }
    if (used + lineTokens > budget) flush();
    lines.push(line);
    used += lineTokens;
  }
  flush();
  return parts.map((body) => {
    const text = wrapped ? wrap(body) : body;
    return { text, tokens: tokens.count(text), joiner: '\n\n', overlap: 'none' };
  });
}

/** Consecutive parts of at most `maxTokens`, cut after whitespace when possible, mid-word only when one word is over. */
export function hardCut(text: string, maxTokens: number, tokens: TokenCounter): { text: string; tokens: number }[] {
  const parts: { text: string; tokens: number }[] = [];
  let rest = text.trimStart();
  while (rest.length > 0) {
    const end = tokens.prefix(rest, maxTokens);
    const part = rest.slice(0, end).trimEnd();
    if (part) parts.push({ text: part, tokens: tokens.count(part) });
    rest = rest.slice(end).trimStart();
  }
  return parts;
}
