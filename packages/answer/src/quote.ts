import type { Candidate } from './extractive-candidates.ts';
import type { TextRange } from './text/sentences.ts';

/** A quotation: verbatim ranges of one passage, in document order, each quoted on its own line. */
export interface Quote {
  candidate: Candidate;
  ranges: TextRange[];
  /** The short code block its last sentence announces, shown as the page shows it. */
  code: TextRange | null;
  chars: number;
  /** Its setting's value is not stated in its passage, whose end is still that setting's text. */
  wantsValue?: boolean;
  /** It is one sentence announcing what the answer cannot show ("…looks like this:" above nothing). */
  dangles?: boolean;
}
