/**
 * A message in a thread, as the auto-answer reads it off the Gateway: plain data, so the rules
 * are tested without a socket.
 */
export interface ThreadMessage {
  guildId: string;
  threadId: string;
  /** 10 announcement thread, 11 public thread (a forum post is one), 12 private thread. */
  threadType: number;
  threadName: string;
  parentId: string;
  messageId: string;
  authorId: string;
  /** Bots, webhooks and system messages are never answered. */
  fromBot: boolean;
  content: string;
  /** Users the message mentions (a reply with "ping on reply" mentions its author too). */
  mentionedUserIds?: string[];
  /** The author of the message this one replies to, when it is a reply. */
  repliedToUserId?: string | null;
}

const EPOCH_MS = 1_420_070_400_000n;

/** When Discord made a snowflake: a thread's id says when it was created. */
export function snowflakeMs(id: string): number {
  return Number((BigInt(id) >> 22n) + EPOCH_MS);
}
