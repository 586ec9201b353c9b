/** A message as Discord's REST API returns it (the fields a history reader looks at). */
export interface FakeMessage {
  id: string;
  channel_id: string;
  /** 0 DEFAULT, 19 REPLY, 21 THREAD_STARTER_MESSAGE, 18 THREAD_CREATED, 6 CHANNEL_PINNED_MESSAGE, 7 USER_JOIN … */
  type: number;
  author: { id: string; username: string; global_name: string | null; discriminator: string; avatar: null; bot?: boolean };
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  attachments: { id: string; filename: string; size: number; url: string; proxy_url: string; content_type?: string }[];
  embeds: unknown[];
  components: unknown[];
  mentions: unknown[];
  mention_roles: string[];
  mention_everyone: boolean;
  pinned: boolean;
  tts: boolean;
  flags: number;
  message_reference?: { type?: number; message_id?: string; channel_id?: string; guild_id?: string };
  /** Only on types 19, 21, 23: absent when Discord did not fetch it, null when it was deleted. */
  referenced_message?: FakeMessage | null;
  thread?: unknown;
  webhook_id?: string;
}

const EPOCH_MS = 1_420_070_400_000n;

/** A snowflake for a moment (and a sequence number within the millisecond), as Discord makes them. */
export function snowflakeAt(ms: number, sequence = 0): string {
  return String(((BigInt(ms) - EPOCH_MS) << 22n) + BigInt(sequence));
}

export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + EPOCH_MS);
}

/** A user message as Discord returns it; `overrides` for replies, attachments, bots, system types. */
export function fakeMessage(
  input: { id: string; channelId: string; author: string; authorId?: string; bot?: boolean; content: string } & Omit<Partial<FakeMessage>, 'id' | 'author' | 'content'>,
): FakeMessage {
  const { id, channelId, author, authorId, bot, content, ...overrides } = input;
  return {
    id,
    channel_id: channelId,
    type: 0,
    author: { id: authorId ?? `4${String(Math.abs(hash(author))).padStart(17, '0')}`, username: author.toLowerCase(), global_name: author, discriminator: '0', avatar: null, ...(bot ? { bot: true } : {}) },
    content,
    timestamp: new Date(snowflakeTime(id)).toISOString(),
    edited_timestamp: null,
    attachments: [],
    embeds: [],
    components: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    flags: 0,
    ...overrides,
  };
}

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h;
}
