import { randomBytes } from 'node:crypto';
import { InteractionResponseType, MessageFlags, type APIInteractionResponse } from 'discord-api-types/v10';
import { PLAYGROUND } from './playground-ids.ts';
import { PRETEND_SERVER, type PretendChannel } from './playground-seed.ts';

export interface PlaygroundMessage {
  id: string;
  /** Which of the pretend server's channels it is in. */
  channelId: string;
  /** You, the bot, or a member of the pretend server (its history, written before you came). */
  author: 'user' | 'bot' | 'member';
  /** A member's display name. */
  authorName?: string;
  /** Pinned in its channel. */
  pinned?: boolean;
  /** The thread this message started. */
  startsThread?: string;
  /** For a bot reply: the command that caused it, shown above it like Discord does ("you used /ask"). */
  invocation: string | undefined;
  /** "thinking…" until the deferred reply is edited. */
  state: 'thinking' | 'done';
  content: string;
  embeds: unknown[];
  components: unknown[];
  flags: number;
  ephemeral: boolean;
  createdAt: string;
  editedAt: string | undefined;
  /** The bot's reactions on it (🔍 when nothing saved covers a post). */
  reactions?: string[];
  /**
   * An ephemeral reply's persona: the one who asked. Switching persona is becoming someone else,
   * so the member never reads what the moderator's private ask or /sources showed.
   */
  persona?: string;
}

export type ChannelEvent = { type: 'message'; message: PlaygroundMessage };

let counter = 0n;
/** Snowflake-shaped and increasing, like Discord's. */
function nextId(): string {
  counter += 1n;
  return String((BigInt(Date.now() - 1_420_070_400_000) << 22n) + counter);
}

/** A forum post title is at most this long (Discord's thread name limit). */
const MAX_TITLE = 100;
/** New forum posts kept; the oldest go first (the pretend server's own are never evicted). */
const MAX_POSTS = 200;

/** Who an interaction was opened for, and what its @original is once there is one. */
interface OpenInteraction {
  messageId: string | undefined;
  invocation: string;
  viewer: string;
  /** The persona that asked, kept on its ephemeral replies. */
  persona: string | undefined;
  channelId: string;
  /** An edit that arrived before the acknowledgement made this message; the acknowledgement decides who sees it. */
  early: boolean;
}

const MAX_SHARED = 500;
const MAX_PRIVATE_PER_VIEWER = 200;
const MAX_VIEWERS = 1000;

/**
 * The playground's one channel: messages the page shows, changed only the way Discord changes
 * them, by an interaction's acknowledgement, its edits and its follow-ups, and by what you type.
 *
 * Like Discord, an ephemeral reply is the asking viewer's alone (an MCP token is one): it is kept
 * per viewer, apart from the shared messages, and only that viewer's reads and event stream see it.
 */
export class PlaygroundChannel {
  /** The pretend server's history: never evicted, never changed. */
  private readonly history: readonly PlaygroundMessage[];

  constructor(history: readonly PlaygroundMessage[] = []) {
    this.history = history;
  }

  /** What every viewer sees; never an ephemeral reply. */
  readonly messages: PlaygroundMessage[] = [];
  /** Viewer id → the ephemeral replies only that viewer may see. */
  private readonly privateMessages = new Map<string, PlaygroundMessage[]>();
  /** Interaction token → the message its @original is. */
  private readonly originals = new Map<string, OpenInteraction>();
  /** Each listener with the viewer it streams to (undefined: shared messages only). */
  private readonly listeners = new Map<(event: ChannelEvent) => void, string | undefined>();

  /** Forum posts made here, after the pretend server's own channels. */
  private readonly posts: PretendChannel[] = [];

  /** The pretend server's channels and threads, with the forum posts made since. */
  channels(): readonly PretendChannel[] {
    return [...PRETEND_SERVER.channels, ...this.posts];
  }

  /**
   * A new post in a forum, as Discord makes one: a thread whose starter message has the thread's
   * own id. The first line of `text` is its title (Discord asks for both; one box is simpler).
   */
  createForumPost(forumId: string, text: string): { thread: PretendChannel; message: PlaygroundMessage } {
    const [first = '', ...rest] = text.trim().split('\n');
    const name = first.trim().slice(0, MAX_TITLE) || 'New post';
    const id = nextId();
    const thread: PretendChannel = { id, name, type: 11, parentId: forumId, topic: '' };
    this.posts.push(thread);
    if (this.posts.length > MAX_POSTS) this.posts.shift();
    const content = rest.join('\n').trim() || first.trim();
    const message = this.add({ channelId: id, author: 'user', invocation: undefined, state: 'done', content, embeds: [], components: [], flags: 0, ephemeral: false }, undefined, undefined, id);
    return { thread, message };
  }

  /** A message the bot posted with its token (an auto-answer), as Discord shows it. */
  postBotMessage(channelId: string, body: { content?: unknown; embeds?: unknown; components?: unknown; flags?: unknown }): PlaygroundMessage {
    return this.add(
      {
        channelId,
        author: 'bot',
        invocation: undefined,
        state: 'done',
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? body.embeds : [],
        components: Array.isArray(body.components) ? body.components : [],
        flags: typeof body.flags === 'number' ? body.flags : 0,
        ephemeral: false,
      },
      undefined,
    );
  }

  /** The bot's reaction on a shared message; shown under it. */
  react(messageId: string, emoji: string): void {
    const message = this.messages.find((m) => m.id === messageId);
    if (!message) return;
    message.reactions = [...new Set([...(message.reactions ?? []), emoji])];
    this.emit(message, undefined);
  }

  subscribe(listener: (event: ChannelEvent) => void, viewer?: string): () => void {
    this.listeners.set(listener, viewer);
    return () => this.listeners.delete(listener);
  }

  /** The shared messages and this viewer's own ephemeral replies, in the order they were posted. */
  visibleTo(viewer: string | undefined): PlaygroundMessage[] {
    const own = viewer === undefined ? undefined : this.privateMessages.get(viewer);
    if ((!own || own.length === 0) && this.history.length === 0) return [...this.messages];
    return [...this.history, ...this.messages, ...(own ?? [])].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  /** A message this viewer can see (and so press a button on), by id. */
  find(id: string, viewer?: string): PlaygroundMessage | undefined {
    return this.messages.find((m) => m.id === id) ?? this.history.find((m) => m.id === id) ?? (viewer === undefined ? undefined : this.privateMessages.get(viewer)?.find((m) => m.id === id));
  }

  postUserMessage(content: string, channelId: string = PLAYGROUND.channelId): PlaygroundMessage {
    return this.add({ channelId, author: 'user', invocation: undefined, state: 'done', content, embeds: [], components: [], flags: 0, ephemeral: false }, undefined);
  }

  /** A token for a new interaction by `viewer`; for a button, its @original is the message the button is on. */
  openInteraction(invocation: string, viewer: string, componentMessageId?: string, channelId: string = PLAYGROUND.channelId, persona?: string): string {
    const token = `pg.${randomBytes(24).toString('base64url')}`;
    this.originals.set(token, { messageId: componentMessageId, invocation, viewer, persona, channelId, early: false });
    if (this.originals.size > 5000) this.originals.delete(this.originals.keys().next().value as string);
    return token;
  }

  isOpen(token: string): boolean {
    return this.originals.has(token);
  }

  /** Applies the interaction response Discord would have received, as Discord would. */
  acknowledge(token: string, response: APIInteractionResponse): void {
    const original = this.originals.get(token);
    if (!original) return;
    const data = ('data' in response ? response.data : undefined) as Record<string, unknown> | undefined;
    const flags = typeof data?.flags === 'number' ? data.flags : 0;
    const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
    switch (response.type) {
      case InteractionResponseType.ChannelMessageWithSource:
      case InteractionResponseType.DeferredChannelMessageWithSource: {
        if (original.early && original.messageId) {
          // The edit beat the acknowledgement here and was kept private; now its audience is known.
          original.early = false;
          if (!ephemeral) this.publish(original.viewer, original.messageId);
          break;
        }
        const deferred = response.type === InteractionResponseType.DeferredChannelMessageWithSource;
        const message = this.add(
          { channelId: original.channelId, author: 'bot', invocation: original.invocation, state: deferred ? 'thinking' : 'done', ...this.body(data), flags: flags & ~MessageFlags.Ephemeral, ephemeral },
          ephemeral ? original.viewer : undefined,
          ephemeral ? original.persona : undefined,
        );
        original.messageId = message.id;
        break;
      }
      case InteractionResponseType.UpdateMessage:
        if (original.messageId) this.update(original.messageId, original.viewer, data ?? {});
        break;
      default:
        // DeferredMessageUpdate: nothing visible until the edit. Autocomplete: answered to the page.
        break;
    }
  }

  /** PATCH @original. Undefined when the token is unknown (Discord: 10015 Unknown Webhook). */
  editOriginal(token: string, body: Record<string, unknown>): PlaygroundMessage | undefined {
    const original = this.originals.get(token);
    if (!original) return undefined;
    if (!original.messageId) {
      // Discord would not accept an edit before the acknowledgement; the playground's own
      // acknowledgement can arrive a moment after a very fast edit, so it keeps the edit, as
      // the viewer's own until the acknowledgement says whether everyone may see it.
      const message = this.add({ channelId: original.channelId, author: 'bot', invocation: original.invocation, state: 'done', ...this.body(body), ephemeral: true }, original.viewer, original.persona);
      original.messageId = message.id;
      original.early = true;
      return message;
    }
    return this.update(original.messageId, original.viewer, body);
  }

  /** POST a follow-up under the interaction. */
  followUp(token: string, body: Record<string, unknown>): PlaygroundMessage | undefined {
    const original = this.originals.get(token);
    if (!original) return undefined;
    const flags = typeof body.flags === 'number' ? body.flags : 0;
    const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
    return this.add(
      { channelId: original.channelId, author: 'bot', invocation: undefined, state: 'done', ...this.body(body), flags: flags & ~MessageFlags.Ephemeral, ephemeral },
      ephemeral ? original.viewer : undefined,
      ephemeral ? original.persona : undefined,
    );
  }

  private body(data: Record<string, unknown> | undefined) {
    return {
      content: typeof data?.content === 'string' ? data.content : '',
      embeds: Array.isArray(data?.embeds) ? data.embeds : [],
      components: Array.isArray(data?.components) ? data.components : [],
      flags: typeof data?.flags === 'number' ? data.flags : 0,
    };
  }

  private update(id: string, viewer: string, body: Record<string, unknown>): PlaygroundMessage | undefined {
    const shared = this.messages.find((m) => m.id === id);
    const message = shared ?? this.privateMessages.get(viewer)?.find((m) => m.id === id);
    if (!message) return undefined;
    if ('content' in body) message.content = typeof body.content === 'string' ? body.content : '';
    if ('embeds' in body) message.embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if ('components' in body) message.components = Array.isArray(body.components) ? body.components : [];
    if (typeof body.flags === 'number') message.flags = body.flags & ~MessageFlags.Ephemeral;
    message.state = 'done';
    message.editedAt = new Date().toISOString();
    this.emit(message, shared ? undefined : viewer);
    return message;
  }

  /** Moves a viewer's message into the shared channel (its acknowledgement was not ephemeral). */
  private publish(viewer: string, id: string): void {
    const own = this.privateMessages.get(viewer);
    const index = own?.findIndex((m) => m.id === id) ?? -1;
    if (!own || index < 0) return;
    const [message] = own.splice(index, 1) as [PlaygroundMessage];
    message.ephemeral = false;
    delete message.persona;
    this.messages.push(message);
    this.messages.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    this.emit(message, undefined);
  }

  /** `viewer` undefined: a shared message; otherwise that viewer's own. */
  private add(fields: Omit<PlaygroundMessage, 'id' | 'createdAt' | 'editedAt'>, viewer: string | undefined, persona?: string, id = nextId()): PlaygroundMessage {
    const message: PlaygroundMessage = { ...fields, id, createdAt: new Date().toISOString(), editedAt: undefined, ...(persona === undefined ? {} : { persona }) };
    if (viewer === undefined) {
      this.messages.push(message);
      if (this.messages.length > MAX_SHARED) this.messages.shift();
    } else {
      let own = this.privateMessages.get(viewer);
      if (!own) {
        own = [];
        this.privateMessages.set(viewer, own);
        if (this.privateMessages.size > MAX_VIEWERS) this.privateMessages.delete(this.privateMessages.keys().next().value as string);
      }
      own.push(message);
      if (own.length > MAX_PRIVATE_PER_VIEWER) own.shift();
    }
    this.emit(message, viewer);
    return message;
  }

  private emit(message: PlaygroundMessage, viewer: string | undefined): void {
    for (const [listener, audience] of this.listeners) {
      if (viewer === undefined || audience === viewer) listener({ type: 'message', message });
    }
  }
}
