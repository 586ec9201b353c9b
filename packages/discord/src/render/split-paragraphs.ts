/**
 * Splits text into pieces of at most `max` characters, on paragraph boundaries where it can;
 * a paragraph longer than `max` is split on lines, then sentences, then words, and only then cut.
 */
export function splitOnParagraphs(text: string, max: number): string[] {
  const pieces: string[] = [];
  let current = '';
  const push = () => {
    if (current.trim()) pieces.push(current.trim());
    current = '';
  };
  for (const paragraph of text.split(/\n{2,}/)) {
    for (const part of paragraph.length > max ? splitLong(paragraph, max) : [paragraph]) {
      const joined = current ? `${current}\n\n${part}` : part;
      if (joined.length <= max) current = joined;
      else {
        push();
        current = part;
      }
    }
  }
  push();
  return pieces;
}

function splitLong(paragraph: string, max: number): string[] {
  // Lines keep their newline; sentences and words are re-joined with a space.
  const separators: [RegExp, string][] = [[/(?<=\n)/, ''], [/(?<=[.!?])\s+/, ' '], [/\s+/, ' ']];
  for (const [separator, glue] of separators) {
    const units = paragraph.split(separator).filter((u) => u.length > 0);
    if (units.length > 1 && units.every((u) => u.length <= max)) return pack(units, max, glue);
  }
  const cuts: string[] = [];
  for (let i = 0; i < paragraph.length; i += max) cuts.push(paragraph.slice(i, i + max));
  return cuts;
}

function pack(units: string[], max: number, glue: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const unit of units) {
    const joined = current ? `${current}${glue}${unit}` : unit;
    if (joined.length <= max) current = joined;
    else {
      out.push(current);
      current = unit;
    }
  }
  if (current) out.push(current);
  return out;
}
