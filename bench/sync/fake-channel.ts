import { fakeMessage, snowflakeAt, type FakeDiscordHistory } from '@brain/testkit';

export interface BenchChannel {
  guildId: string;
  channelId: string;
  threadIds: string[];
  /** Every message id, thread by thread: what a complete backfill must hold. */
  messageIds: Set<string>;
}

const WORDS = ['gateway', 'rota', 'invoice', 'staging', 'token', 'backup', 'printer', 'release', 'mirror', 'quota', 'ledger', 'runner'];

/**
 * A text channel of `threads` archived threads with `perThread` messages each, as a busy help
 * channel looks once its questions have gone quiet. Each message says something of its own, so
 * its passage can be traced back to it.
 */
export function buildBenchChannel(history: FakeDiscordHistory, threads: number, perThread: number): BenchChannel {
  const guildId = '960000000000000001';
  const channelId = '960000000000000002';
  history.createChannel(channelId, { guildId, name: 'help' });
  const t0 = Date.parse('2026-06-01T00:00:00Z');
  const threadIds: string[] = [];
  const messageIds = new Set<string>();
  for (let t = 0; t < threads; t++) {
    const base = t0 + t * 3_600_000;
    const threadId = snowflakeAt(base);
    threadIds.push(threadId);
    history.createThread(threadId, { parentId: channelId, name: `Question ${t}` });
    const messages = Array.from({ length: perThread }, (_, m) => {
      const id = snowflakeAt(base + (m + 1) * 1000);
      messageIds.add(id);
      const word = WORDS[(t + m) % WORDS.length] as string;
      return fakeMessage({
        id,
        channelId: threadId,
        author: m % 2 ? 'Ada' : 'Grace',
        content: `In question ${t}, reply ${m}: the ${word} setting for team ${t % 97} is value-${t}-${m}, checked on day ${m % 28}.`,
      });
    });
    history.addMessages(threadId, messages);
    history.archiveThread(threadId, new Date(base + 86_400_000).toISOString());
  }
  return { guildId, channelId, threadIds, messageIds };
}
