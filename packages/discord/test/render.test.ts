import { describe, expect, it } from 'vitest';
import { MessageFlags } from 'discord-api-types/v10';
import { DISCORD_LIMITS, embedCharacters, limitViolations, renderAnswer, splitOnParagraphs, type AskOutcome } from '../src/index.ts';
import { citedSourcesMessage } from '../src/render/cited-sources.ts';
import { notice } from '../src/render/notice.ts';
import { saveResultMessage } from '../src/render/save-messages.ts';
import { inert, titledLink } from '../src/render/text.ts';

function outcome(answer: string, citations = 3): AskOutcome {
  return {
    answer,
    grounded: citations > 0,
    citations: Array.from({ length: citations }, (_, i) => ({
      n: i + 1,
      artifactId: `a${i}`,
      chunkId: `c${i}`,
      title: `Source number ${i + 1} with a reasonably long title that goes on`,
      url: i % 2 === 0 ? `https://docs.example.com/page/${i}` : `https://discord.com/channels/1/2/${1000 + i}`,
      heading: 'Setup › Install',
      similarity: 0.8,
    })),
    queryId: '0b9f4a52-5d4e-4b7e-9d8e-1a2b3c4d5e6f',
    trimmed: false,
    answerer: 'extractive',
    model: 'extractive-v1',
  };
}

const paragraph = (i: number, words = 60) => `Paragraph ${i}: ` + Array.from({ length: words }, (_, w) => `word${w}`).join(' ') + ` [${(i % 3) + 1}].`;

describe('renderAnswer', () => {
  it('puts a short answer, numbered sources linked to their URL or jump link, and 👍 👎 Sources in one message', () => {
    const [message, ...rest] = renderAnswer('How do we deploy?', outcome('We deploy on Fridays [1], after review [2].'));
    expect(rest).toEqual([]);
    expect(message?.flags).toBe(0); // SUPPRESS_EMBEDS would hide the embeds themselves
    expect(message?.embeds[0]).toMatchObject({ title: '❓ How do we deploy?', description: 'We deploy on Fridays [1], after review [2].' });
    const sources = message?.embeds.at(-1)?.description ?? '';
    expect(sources).toContain('**[1]** [Source number 1 with a reasonably long title that goes on](https://docs.example.com/page/0)');
    expect(sources).toContain('(https://discord.com/channels/1/2/1001)');
    const buttons = message?.components[0]?.components.map((c) => ('custom_id' in c ? c.custom_id : ''));
    expect(buttons).toEqual(['fb:up:0b9f4a52-5d4e-4b7e-9d8e-1a2b3c4d5e6f', 'fb:down:0b9f4a52-5d4e-4b7e-9d8e-1a2b3c4d5e6f', 'cs:0b9f4a52-5d4e-4b7e-9d8e-1a2b3c4d5e6f']);
    expect(limitViolations(message as never)).toEqual([]);
  });

  it('splits a 20,000-character answer on paragraph boundaries into messages that each respect 4,096 / 10 embeds / 6,000', () => {
    const answer = Array.from({ length: 50 }, (_, i) => paragraph(i)).join('\n\n');
    expect(answer.length).toBeGreaterThan(20_000);
    const messages = renderAnswer('q', outcome(answer, 40));
    expect(messages.length).toBeGreaterThan(3);
    for (const m of messages) {
      expect(limitViolations(m)).toEqual([]);
      expect(m.embeds.length).toBeLessThanOrEqual(DISCORD_LIMITS.embedsPerMessage);
      expect(m.embeds.reduce((n, e) => n + embedCharacters(e), 0)).toBeLessThanOrEqual(DISCORD_LIMITS.embedsTotal);
      for (const e of m.embeds) expect(e.description?.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.embedDescription);
    }
    // Nothing lost, and every piece ends on a paragraph boundary.
    const answerEmbeds = messages.flatMap((m) => m.embeds).filter((e) => e.title !== 'Sources');
    expect(answerEmbeds.map((e) => e.description).join('\n\n')).toBe(answer);
    for (const e of answerEmbeds) expect(e.description).toMatch(/\[\d\]\.$/);
    // 40 citations do not fit: the list says so, and the buttons sit on the last message.
    expect(messages.at(-1)?.embeds.at(-1)?.description).toMatch(/…and \d+ more: press \*\*Sources\*\*\.$/);
    expect(messages.at(-1)?.components).toHaveLength(1);
    expect(messages.slice(0, -1).every((m) => m.components.length === 0)).toBe(true);
  });

  it('cuts a single paragraph longer than 4,096 characters on sentences, then words', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Sentence ${i} is here.`).join(' ');
    const pieces = splitOnParagraphs(long, 4096);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.length <= 4096 && p.endsWith('.'))).toBe(true);
    expect(pieces.join(' ')).toBe(long);
    expect(splitOnParagraphs('x'.repeat(9000), 4096).map((p) => p.length)).toEqual([4096, 4096, 808]);
  });

  it('keeps mentions in answers and titles from reading as mentions', () => {
    const [message] = renderAnswer('@everyone?', { ...outcome('Ping @everyone and @here and <@123> and <@&456> [1]'), citations: [{ ...outcome('', 1).citations[0]!, title: '@everyone **bold** [x](https://evil.test)' }] });
    const text = JSON.stringify(message);
    expect(text).not.toMatch(/@everyone|@here|<@123>|<@&456>/);
    // The title's own brackets are escaped: the only link is the one we made, to the source.
    expect(message?.embeds.at(-1)?.description).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
  });
});

describe('other messages', () => {
  it('content-only notices suppress link previews and stay within 2,000 characters', () => {
    const m = notice('x'.repeat(5000));
    expect(m.flags).toBe(MessageFlags.SuppressEmbeds);
    expect(m.content.length).toBe(DISCORD_LIMITS.content);
  });

  it('the Sources button lists at most 25 fields within 6,000 characters', () => {
    const passages = Array.from({ length: 40 }, (_, i) => ({ n: i + 1, title: `T${i} `.repeat(80), url: `https://e.test/${i}`, heading: 'H', content: 'c'.repeat(2000) }));
    const m = citedSourcesMessage(passages);
    expect(limitViolations(m)).toEqual([]);
    expect(m.embeds[0]?.footer?.text).toMatch(/more not shown/);
  });

  it('a save result says "Saved *Title* — N passages", or why it failed', () => {
    const base = { url: 'https://e.test/a', fileName: null, pending: false, lastError: null, errorCode: null, errorMessage: null };
    const m = saveResultMessage(
      [
        { ...base, id: '1', title: 'Guide', status: 'ready', passages: 12 },
        { ...base, id: '2', title: null, status: 'failed', passages: 0, errorCode: 'FETCH_TIMEOUT', errorMessage: 'The page took too long.' },
      ],
      [{ fileName: 'x.zip', reason: 'not a PDF' }],
      Date.now(),
    );
    expect(m.content).toContain('✅ Saved *Guide* — 12 passages · <https://e.test/a>');
    expect(m.content).toContain("❌ Couldn't save *https://e.test/a* · <https://e.test/a>: The page took too long. (`FETCH_TIMEOUT`)");
    expect(m.content).toContain('Skipped x.zip: not a PDF');
    expect(m.flags).toBe(MessageFlags.SuppressEmbeds);
  });

  it('escapes titles so they cannot restyle or mask a link', () => {
    expect(titledLink('a](https://evil.test) [b', 'https://ok.test/x')).toBe('[a\\](https://evil.test) \\[b](https://ok.test/x)');
    expect(titledLink('No link', 'javascript:alert(1)')).toBe('**No link**');
    expect(inert('*hi* @here')).toBe('\\*hi\\* @\u200bhere');
  });
});
