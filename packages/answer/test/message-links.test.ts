import { describe, expect, it } from 'vitest';
import { citedMessage, type MessageSpan } from '../src/citations/message-links.ts';

const parts = [
  '### Ada · 2026-11-30 10:00 UTC\nThe staging database restarts every Sunday at 04:00.',
  '### Grace · 2026-11-30 10:02 UTC · reply to Ada\nGood to know. The deploy key lives in the vault under ops/deploy.',
  '### Ada · 2026-11-30 10:05 UTC\nThanks! I rotated it yesterday after the incident.',
];
const content = parts.join('\n\n');
const spans: MessageSpan[] = [];
let at = 0;
for (const [i, p] of parts.entries()) {
  spans.push({ start: at, end: at + p.length, message_id: `m${i}`, url: `https://discord.com/channels/1/2/m${i}` });
  at += p.length + 2;
}

describe('citedMessage', () => {
  it('an extractive quote links the message that holds it, wherever it sits in the passage', () => {
    const answer = 'From the saved sources (quoted):\n> The deploy key lives in the vault under ops/deploy. [1]\n> Something else entirely. [2]';
    expect(citedMessage(answer, 1, content, spans)?.message_id).toBe('m1');
    const later = 'Quoted:\n> Thanks! [2]\n> I rotated it yesterday after the incident. [1]';
    expect(citedMessage(later, 1, content, spans)?.message_id).toBe('m2');
  });

  it('a paraphrase links the message sharing most of its words', () => {
    const answer = 'Staging restarts its database on Sundays at 04:00 [1]. Ask Grace about keys [2].';
    expect(citedMessage(answer, 1, content, spans)?.message_id).toBe('m0');
  });

  it('falls back to the passage’s first message when nothing matches, and to nothing without spans', () => {
    expect(citedMessage('Unrelated words [1].', 1, content, spans)?.message_id).toBe('m0');
    expect(citedMessage('x [1]', 1, content, [])).toBeUndefined();
  });
});
