/** The few members of pdf.js's document and page proxies read here. */
export interface PdfDocument {
  getPage(pageNumber: number): Promise<{ getAnnotations(options: { intent: 'display' }): Promise<PdfAnnotation[]>; cleanup(): void }>;
}

interface PdfAnnotation {
  subtype?: string;
  /** Tx text, Ch choice, Btn button, Sig signature. */
  fieldType?: string;
  fieldValue?: unknown;
  /** The field's tooltip (/TU): the label a person reads beside it. */
  alternativeText?: string;
  contentsObj?: { str?: string };
  /** Text pdf.js read from the annotation's appearance stream. */
  textContent?: string[];
  rect?: number[];
}

/**
 * Filled form fields and typed comments (FreeText annotations) are not page content: pdf.js's
 * text layer leaves them out, and a filled certificate would read as its bare title. Their text,
 * in reading order (top to bottom, then left to right), one per line: a text or choice field's
 * value after its label when it has one; a FreeText comment as written. Values the page already
 * shows (a flattened form) are not repeated. Buttons and signatures hold no text a reader types.
 */
export async function annotationText(document: PdfDocument, pageNumber: number, pageText: string): Promise<string> {
  const page = await document.getPage(pageNumber);
  try {
    const annotations = [...(await page.getAnnotations({ intent: 'display' }))].sort(
      (a, b) => (b.rect?.[3] ?? 0) - (a.rect?.[3] ?? 0) || (a.rect?.[0] ?? 0) - (b.rect?.[0] ?? 0),
    );
    const shown = clean(pageText);
    const lines = new Set<string>();
    for (const annotation of annotations) {
      const entry = entryOf(annotation);
      if (entry && !shown.includes(entry.value)) lines.add(entry.line);
    }
    return [...lines].join('\n');
  } finally {
    page.cleanup();
  }
}

/** The line to add, and the value whose presence on the page makes it a repeat. */
function entryOf(annotation: PdfAnnotation): { line: string; value: string } | undefined {
  if (annotation.subtype === 'FreeText') {
    const value = clean(annotation.contentsObj?.str || (annotation.textContent ?? []).join(' '));
    return value ? { line: value, value } : undefined;
  }
  if (annotation.subtype !== 'Widget' || (annotation.fieldType !== 'Tx' && annotation.fieldType !== 'Ch')) return undefined;
  const raw = annotation.fieldValue;
  const value = clean((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string').join(', '));
  if (value === '') return undefined;
  const label = clean(annotation.alternativeText ?? '');
  return { line: label ? `${label}: ${value}` : value, value };
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
