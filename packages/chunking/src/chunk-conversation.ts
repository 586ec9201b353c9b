import { createHash } from 'node:crypto';
import { tokenCounterFor, type TokenCounter } from './estimate-tokens.ts';
import { packPieces } from './pack.ts';
import { cleanHeading } from './parse-sections.ts';
import { proseToPieces } from './pieces.ts';

/** Changes whenever the same conversation would give different passages. */
export const conversationChunkingVersion = 'thread-v2';

/**
 * Half a document passage: chat messages are short and a thread changes subject every few of
 * them, so a passage of a dozen or more messages mixes topics and its vector matches none of them
 * well. `npm run bench:thread-passages`, local embedder, the tests' 240-message thread: the
 * passage holding the answer to one of its questions ranked 10th at 400 tokens and 1st at 200.
 */
export const DEFAULT_CONVERSATION_MAX_TOKENS = 200;

/**
 * On average one message in this many closes its passage whatever the budget left, chosen by a
 * hash of its id. Greedy packing alone lets one edited message move every later boundary (an
 * edit early in a long thread would re-embed the rest of it); boundaries anchored to message ids
 * put the packing back in step at the next anchor, so an edit re-embeds only the passages up to
 * it (in this package's test, under 3 on average for an edit anywhere in 240 messages, at most 6).
 */
export const CONVERSATION_ANCHOR_EVERY = 8;

/** One message of a conversation (a Discord thread), as it is shown and cited. */
export interface ConversationMessage {
  id: string;
  /** The message's own link: what a citation of its text opens. */
  url: string;
  author: string;
  /** ISO 8601. */
  at: string;
  content: string;
  /** The display name of the author this message replies to, when it is a reply. */
  replyTo?: string | null | undefined;
  /** File names of its attachments, shown so a reader knows they exist (they are indexed apart). */
  attachments?: readonly string[] | undefined;
}

/** A range of a passage's content that comes from one message. */
export interface MessageSpan {
  start: number;
  end: number;
  messageId: string;
  url: string;
}

export interface ConversationChunk {
  ordinal: number;
  heading: string;
  content: string;
  contentHash: string;
  tokenCount: number;
  /** In content order, covering every message the passage holds. */
  spans: MessageSpan[];
}

interface Unit {
  message: ConversationMessage;
  text: string;
  tokens: number;
}

/**
 * Splits a conversation into passages that follow message boundaries: whole consecutive messages
 * share a passage while they fit the budget (and until an anchor message, see
 * CONVERSATION_ANCHOR_EVERY), and a message is split (paragraphs, then sentences,
 * then a hard cut) only when it alone is longer than the budget; each part keeps its author line.
 * Every passage records which ranges of its text come from which message, so an answer quoting it
 * can link the exact message. No overlap: a message is never repeated in two passages, which would
 * make a citation ambiguous. Pure and deterministic.
 */
export function chunkConversation(
  input: { title?: string | null; messages: readonly ConversationMessage[] },
  options: { maxTokens?: number } = {},
): ConversationChunk[] {
  const maxTokens = options.maxTokens ?? DEFAULT_CONVERSATION_MAX_TOKENS;
  const heading = cleanHeading(input.title ?? '');
  // One letter rate for the whole conversation, so the estimates of its messages add up.
  const counter = tokenCounterFor(input.messages.map((m) => m.content).join('\n'));
  const units = input.messages.flatMap((m) => unitsOf(m, maxTokens, counter));

  const chunks: ConversationChunk[] = [];
  let current: Unit[] = [];
  let tokens = 0;
  const flush = () => {
    if (current.length === 0) return;
    let content = '';
    const spans: MessageSpan[] = [];
    for (const unit of current) {
      if (content) content += '\n\n';
      spans.push({ start: content.length, end: content.length + unit.text.length, messageId: unit.message.id, url: unit.message.url });
      content += unit.text;
    }
    chunks.push({
      ordinal: chunks.length,
      heading,
      content,
      contentHash: createHash('sha256').update(`${heading}\n${content}`).digest('hex'),
      tokenCount: counter.count(content),
      spans,
    });
    current = [];
    tokens = 0;
  };
  for (const [i, unit] of units.entries()) {
    if (current.length > 0 && tokens + unit.tokens > maxTokens) flush();
    current.push(unit);
    tokens += unit.tokens;
    const lastPart = units[i + 1]?.message !== unit.message;
    if (lastPart && isAnchor(unit.message.id)) flush();
  }
  flush();
  return chunks;
}

/**
 * The line above a message's text. A markdown heading, so extractive answers never quote it as a
 * statement, while the author and the reply still give the passage its context.
 */
export function messageHeader(message: ConversationMessage, continued = false): string {
  const at = message.at.replace('T', ' ').replace(/:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/, ' UTC');
  const reply = message.replyTo ? ` · reply to ${oneLine(message.replyTo)}` : '';
  return `### ${oneLine(message.author)} · ${at}${reply}${continued ? ' (continued)' : ''}`;
}

function unitsOf(message: ConversationMessage, maxTokens: number, counter: TokenCounter): Unit[] {
  const files = (message.attachments ?? []).map((name) => `📎 ${oneLine(name)}`).join('\n');
  const body = [message.content.trim(), files].filter(Boolean).join('\n');
  const whole = `${messageHeader(message)}\n${body}`;
  const wholeTokens = counter.count(whole);
  if (wholeTokens <= maxTokens) return [{ message, text: whole, tokens: wholeTokens }];

  const headerTokens = counter.count(messageHeader(message, true));
  const budget = Math.max(16, maxTokens - headerTokens);
  const pieces = body.split(/\n{2,}/).flatMap((paragraph) => proseToPieces(paragraph, budget, '\n\n', counter));
  return packPieces(pieces, budget, 0, counter).map((part, i) => {
    const text = `${messageHeader(message, i > 0)}\n${part}`;
    return { message, text, tokens: counter.count(text) };
  });
}

function isAnchor(messageId: string): boolean {
  return createHash('sha256').update(messageId).digest().readUInt32BE(0) % CONVERSATION_ANCHOR_EVERY === 0;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
