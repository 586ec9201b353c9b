/** Documents for the benchmark: markdown of about `bytes` size with distinct vocabulary per document. */
export function benchDocument(index: number, bytes: number): string {
  const sections: string[] = [`# Bench document ${index}`];
  let size = sections[0]?.length ?? 0;
  let section = 0;
  while (size < bytes) {
    const lines = [`## Section ${section} of document ${index}`, ''];
    for (let p = 0; p < 3; p++) {
      const sentences = Array.from(
        { length: 8 },
        (_, s) => `Token bench${index}x${section}x${p}x${s} explains how component ${(index * 31 + section * 7 + s) % 997} handles request ${s} during step ${p}.`,
      );
      lines.push(sentences.join(' '), '');
    }
    const text = lines.join('\n');
    sections.push(text);
    size += text.length;
    section++;
  }
  return sections.join('\n\n');
}

/** A 100 KB HTML page whose unique word is `marker`. */
export function benchPage(index: number, marker: string): string {
  const body = benchDocument(index, 100 * 1024)
    .split('\n\n')
    .map((block) => (block.startsWith('## ') ? `<h2>${block.slice(3).split('\n')[0]}</h2><p>${block.split('\n').slice(1).join(' ')}</p>` : `<p>${block.replace(/^# /, '')}</p>`))
    .join('\n');
  return `<!doctype html><html><head><title>Page ${index}</title></head><body><article><h1>Page ${index}</h1><p>The marker is ${marker}.</p>${body}</article></body></html>`;
}
