import type { Quote } from './quote.ts';

/**
 * A reader takes the first quotation for the answer. The strongest one leads, unless it is not
 * about anything the question names and a quotation at least LEAD_SHARE as strong is: the text
 * under a label that is a name the question writes (an option, a setting, a signature), an API
 * whose description opens with the action asked for, or a line that writes every value the
 * question writes ("`~1.2.3` := `>=1.2.3 <1.3.0-0`" for "What does the tilde range ~1.2.3
 * expand to?"). A heading named by its plain words does not count ("Security policy" is not what
 * "What is the refund policy?" asks about). "What does the -k option of the unittest command line
 * do?" then opens with what `-k` does rather than with the changelog line "New in version 3.7: The
 * command-line option `-k`." Chosen on the tune halves (docs/retrieval-and-evaluation.md): it only
 * reorders.
 */
const LEAD_SHARE = 0.7;
function leadIndex(picked: readonly Quote[]): number {
  const head = picked[0];
  if (!head) return 0;
  const strong = (q: Quote) => q.candidate.score >= LEAD_SHARE * head.candidate.score;
  // A value the question writes is more particular than any name: the range's heading names
  // "~1.2.3" too, but only one line under it says what "~1.2.3" is.
  const writesValues = (q: Quote) => q.candidate.writesAskedValues;
  if (writesValues(head)) return 0;
  const byValues = picked.findIndex((q) => writesValues(q) && strong(q));
  if (byValues > 0) return byValues;
  const aboutNamed = (q: Quote) => q.candidate.underNamedName || q.candidate.definesMeans;
  if (aboutNamed(head)) return 0;
  return Math.max(0, picked.findIndex((q) => aboutNamed(q) && strong(q)));
}

/**
 * The best quotation first, since it is the likeliest to state the fact; then the rest, a
 * passage's quotations together and in the order the page has them, as the passages were first
 * picked: read in pick order, a later sentence of the page can come before the one it follows.
 * When another quotation leads (leadIndex), it and its passage's other quotations move to the
 * front, and everything else keeps its order.
 */
export function orderForReading(picked: Quote[]): Quote[] {
  const [best, ...rest] = picked;
  if (!best) return [];
  const firstPick = new Map<number, number>();
  for (const [i, q] of picked.entries()) if (!firstPick.has(q.candidate.passage.n)) firstPick.set(q.candidate.passage.n, i);
  const startOf = (q: Quote) => q.ranges[0]?.start ?? q.candidate.span.start;
  const ordered = [best, ...rest.sort((a, b) => (firstPick.get(a.candidate.passage.n) ?? 0) - (firstPick.get(b.candidate.passage.n) ?? 0) || startOf(a) - startOf(b))];
  const lead = picked[leadIndex(picked)];
  if (!lead || lead === best) return ordered;
  const ofLead = (q: Quote) => q.candidate.passage.n === lead.candidate.passage.n;
  return [lead, ...ordered.filter((q) => q !== lead && ofLead(q)), ...ordered.filter((q) => !ofLead(q))];
}
