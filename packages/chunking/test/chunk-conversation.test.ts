import { describe, expect, it } from 'vitest';
import { chunkConversation, estimateTokens, messageHeader, type ConversationMessage } from '../src/index.ts';

const message = (i: number, content: string, extra: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id: String(1000 + i),
  url: `https://discord.com/channels/1/2/${1000 + i}`,
  author: i % 2 ? 'Ada' : 'Grace',
  at: `2026-11-30T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
  content,
  ...extra,
});

describe('chunkConversation', () => {
  const messages = Array.from({ length: 60 }, (_, i) => message(i, `Message number ${i} says the build cache lives in bucket b${i}. Nothing else matters here.`));

  it('packs whole messages, never splits a short one, and maps every range back to its message', () => {
    const chunks = chunkConversation({ title: 'Build help', messages }, { maxTokens: 120 });
    expect(chunks.length).toBeGreaterThan(5);
    const seen: string[] = [];
    for (const chunk of chunks) {
      expect(chunk.heading).toBe('Build help');
      expect(chunk.tokenCount).toBeLessThanOrEqual(120);
      for (const span of chunk.spans) {
        const text = chunk.content.slice(span.start, span.end);
        const source = messages.find((m) => m.id === span.messageId) as ConversationMessage;
        expect(text).toBe(`${messageHeader(source)}\n${source.content}`);
        expect(span.url).toBe(source.url);
        seen.push(span.messageId);
      }
      // The spans tile the passage: only the blank line between messages is outside them.
      expect(chunk.spans.map((s) => chunk.content.slice(s.start, s.end)).join('\n\n')).toBe(chunk.content);
    }
    expect(seen).toEqual(messages.map((m) => m.id));
  });

  it('splits only a message longer than the budget, each part under its author line', () => {
    const long = message(7, Array.from({ length: 40 }, (_, i) => `Sentence ${i} of the long explanation about retries.`).join(' '));
    const chunks = chunkConversation({ title: 't', messages: [messages[0] as ConversationMessage, long, messages[1] as ConversationMessage] }, { maxTokens: 100 });
    const parts = chunks.flatMap((c) => c.spans.filter((s) => s.messageId === long.id).map((s) => c.content.slice(s.start, s.end)));
    expect(parts.length).toBeGreaterThan(2);
    expect(parts[0]?.startsWith(messageHeader(long))).toBe(true);
    expect(parts.slice(1).every((p) => p.startsWith(`${messageHeader(long, true)}\n`))).toBe(true);
    for (const c of chunks) expect(estimateTokens(c.content)).toBeLessThanOrEqual(100);
    // Neighbours stay whole.
    const neighbours = chunks.flatMap((c) => c.spans.filter((s) => s.messageId !== long.id));
    expect(neighbours).toHaveLength(2);
  });

  it('marks replies and lists attachments in the author line and text', () => {
    const [chunk] = chunkConversation({ title: 't', messages: [message(3, 'See the file.', { replyTo: 'Grace', attachments: ['runbook.pdf'] })] });
    expect(chunk?.content).toBe('### Ada · 2026-11-30 10:03 UTC · reply to Grace\nSee the file.\n📎 runbook.pdf');
  });

  it('gives an unchanged conversation the same passages and hashes, an edited message a new hash for its passage only', () => {
    const before = chunkConversation({ title: 't', messages }, { maxTokens: 120 });
    const edited = messages.map((m, i) => (i === 30 ? { ...m, content: m.content.replace('bucket', 'vault') } : m));
    const after = chunkConversation({ title: 't', messages: edited }, { maxTokens: 120 });
    expect(chunkConversation({ title: 't', messages }, { maxTokens: 120 })).toEqual(before);
    const changed = after.filter((c, i) => c.contentHash !== before[i]?.contentHash);
    expect(changed).toHaveLength(1);
    expect(changed[0]?.spans.some((s) => s.messageId === messages[30]?.id)).toBe(true);
  });

  it('keeps boundaries stable around an edit: a message that grows re-cuts the passages up to the next anchor, not every later one', () => {
    const long = Array.from({ length: 240 }, (_, i) => message(i, `Reply ${i}: the cache key for job ${i} is stored in bucket b${i}.`));
    const before = chunkConversation({ title: 't', messages: long });
    const old = new Set(before.map((c) => c.contentHash));
    const changed = long.map((_, at) => {
      const grown = long.map((m, i) => (i === at ? { ...m, content: `${m.content} It now also keeps the build logs for thirty days, and the artifacts for ninety.` } : m));
      return chunkConversation({ title: 't', messages: grown }).filter((c) => !old.has(c.contentHash)).length;
    });
    // Greedy packing alone re-cuts everything after the edit: tens of passages for an early one.
    expect(before.length).toBeGreaterThan(40);
    expect(Math.max(...changed)).toBeLessThanOrEqual(6);
    expect(changed.reduce((a, b) => a + b, 0) / changed.length).toBeLessThan(3);
  });
});
