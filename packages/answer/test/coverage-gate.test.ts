import { describe, expect, it } from 'vitest';
import { missingTerms, namesIn } from '../src/coverage-gate.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import { termOf } from '../src/text/terms.ts';
import type { Passage } from '../src/types.ts';

const passages: Passage[] = [
  { n: 1, title: 'pathlib', url: null, heading: 'Methods', content: 'Path.absolute() makes the path absolute. Call reply.getResponseTime() for timing.' },
];

/** Workspace counts: every word in 10 of 500 passages, except those listed as absent (0). */
function stats(question: string, absent: readonly string[]): TermStats {
  const frequencies = new Map<string, number>();
  for (const m of question.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) frequencies.set(termOf(m[0]), absent.includes(m[0]) ? 0 : 10);
  return { documents: 500, frequencies, cap: 20 };
}

describe('missingTerms', () => {
  it('names a product, setting or method that no saved passage holds', () => {
    expect(missingTerms('What does pathlib.Path.teleport() return?', passages, stats('What does pathlib.Path.teleport() return?', ['teleport']))).toEqual([
      'pathlib.Path.teleport',
    ]);
    const q = 'What is the maximum payload size of a NOTIFY message?';
    expect(missingTerms(q, passages, stats(q, ['notify']))).toEqual(['NOTIFY']);
    const s = 'How do I turn on the `max_parallel_flux` setting?';
    expect(missingTerms(s, passages, stats(s, ['max_parallel_flux']))).toEqual(['max_parallel_flux']);
  });

  it('refuses on ordinary words only when at least half of the question is in nothing saved', () => {
    const offTopic = 'How long should sourdough bread proof before baking?';
    expect(missingTerms(offTopic, passages, stats(offTopic, ['sourdough', 'bread', 'proof']))).toEqual(['sourdough', 'bread', 'proof']);
    const userWords = 'How do I stop waiting for an external program that hangs forever?';
    expect(missingTerms(userWords, passages, stats(userWords, ['hangs']))).toEqual([]);
  });

  it('names a lower-case word that is in no dictionary and nothing saved (a module or product name)', () => {
    const q = 'How do I send an email with an attachment using smtplib?';
    expect(missingTerms(q, passages, stats(q, ['smtplib']))).toEqual(['smtplib']);
    const tk = 'How do I add a button to a tkinter window?';
    expect(missingTerms(tk, passages, stats(tk, ['tkinter']))).toEqual(['tkinter']);
    // The asker's own English, even glued together, is not a name.
    const own = 'How do I copy a folder with all its subfolders?';
    expect(missingTerms(own, passages, stats(own, ['subfolders']))).toEqual([]);
    // A misspelling no passage holds is named too, so the asker sees what to fix.
    const typo = 'How do I confgure the server?';
    expect(missingTerms(typo, passages, stats(typo, ['confgure']))).toEqual(['confgure']);
  });

  it('never refuses on a word a retrieved passage contains as written, or on a word PostgreSQL did not count', () => {
    const q = 'What replaced reply.getResponseTime() in v5?';
    // PostgreSQL indexes "reply.getResponseTime()" as one token: its count of the word is 0.
    expect(missingTerms(q, passages, stats(q, ['getresponsetime']))).toEqual([]);
    const uncounted: TermStats = { documents: 500, frequencies: new Map(), cap: 20 };
    expect(missingTerms('What does the Zorblax option do?', passages, uncounted)).toEqual([]);
  });

  it('finds names by their shape, not by a list', () => {
    expect(namesIn('Does Django use the `DEBUG` flag or maxHeaderLinesPerSecond in v5.2?')).toEqual(
      expect.arrayContaining(['DEBUG', 'Django', 'maxHeaderLinesPerSecond', 'v5.2']),
    );
    expect(namesIn('How do I pause my program for two seconds?')).toEqual([]);
  });
});
