import type { PlaygroundMessage } from './playground-channel.ts';
import { PRETEND_SERVER } from './playground-seed.ts';

const EPOCH_MS = 1_420_070_400_000n;

/** The pretend server's own messages as the page shows them: written by members before you came. */
export function pretendHistory(): PlaygroundMessage[] {
  return PRETEND_SERVER.messages.map((m) => ({
    id: m.id,
    channelId: m.channelId,
    author: 'member',
    authorName: m.author,
    invocation: undefined,
    state: 'done',
    content: m.content,
    embeds: [],
    components: [],
    flags: 0,
    ephemeral: false,
    createdAt: new Date(Number((BigInt(m.id) >> 22n) + EPOCH_MS)).toISOString(),
    editedAt: undefined,
    ...(m.pinned ? { pinned: true } : {}),
    ...(m.startsThread ? { startsThread: m.startsThread } : {}),
  }));
}
