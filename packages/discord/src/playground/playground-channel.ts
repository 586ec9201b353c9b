import { randomBytes } from 'node:crypto';
import { InteractionResponseType, MessageFlags, type APIInteractionResponse } from 'discord-api-types/v10';
import { PLAYGROUND } from './playground-ids.ts';

export interface PlaygroundMessage {
  id: string;
  /** Which of the pretend server's channels it is in. */
  channelId: string;
  author: 'user' | 'bot';
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
}

export type ChannelEvent = { type: 'message'; message: PlaygroundMessage };

let counter = 0n;
/** Snowflake-shaped and increasing, like Discord's. */
function nextId(): string {
  counter += 1n;
  return String((BigInt(Date.now() - 1_420_070_400_000) << 22n) + counter);
}

/**
 * The playground's one channel: messages the page shows, changed only the way Discord changes
 * them, by an interaction's acknowledgement, its edits and its follow-ups, and by what you type.
 */
export class PlaygroundChannel {
  readonly messages: PlaygroundMessage[] = [];
  /** Interaction token → the message its @original is. */
  private readonly originals = new Map<string, { messageId: string | undefined; invocation: string; channelId: string }>();
  private readonly listeners = new Set<(event: ChannelEvent) => void>();

  subscribe(listener: (event: ChannelEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  find(id: string): PlaygroundMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  postUserMessage(content: string, channelId: string = PLAYGROUND.channelId): PlaygroundMessage {
    return this.add({ channelId, author: 'user', invocation: undefined, state: 'done', content, embeds: [], components: [], flags: 0, ephemeral: false });
  }

  /** A token for a new interaction; for a button, its @original is the message the button is on. */
  openInteraction(invocation: string, componentMessageId?: string, channelId: string = PLAYGROUND.channelId): string {
    const token = `pg.${randomBytes(24).toString('base64url')}`;
    this.originals.set(token, { messageId: componentMessageId, invocation, channelId });
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
        const deferred = response.type === InteractionResponseType.DeferredChannelMessageWithSource;
        const message = this.add({
          channelId: original.channelId,
          author: 'bot',
          invocation: original.invocation,
          state: deferred ? 'thinking' : 'done',
          ...this.body(data),
          flags: flags & ~MessageFlags.Ephemeral,
          ephemeral,
        });
        original.messageId = message.id;
        break;
      }
      case InteractionResponseType.UpdateMessage:
        if (original.messageId) this.update(original.messageId, data ?? {});
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
      // acknowledgement can arrive a moment after a very fast edit, so it keeps the edit.
      const message = this.add({ channelId: original.channelId, author: 'bot', invocation: original.invocation, state: 'done', ...this.body(body), ephemeral: false });
      original.messageId = message.id;
      return message;
    }
    return this.update(original.messageId, body);
  }

  /** POST a follow-up under the interaction. */
  followUp(token: string, body: Record<string, unknown>): PlaygroundMessage | undefined {
    const original = this.originals.get(token);
    if (!original) return undefined;
    const flags = typeof body.flags === 'number' ? body.flags : 0;
    return this.add({ channelId: original.channelId, author: 'bot', invocation: undefined, state: 'done', ...this.body(body), flags: flags & ~MessageFlags.Ephemeral, ephemeral: (flags & MessageFlags.Ephemeral) !== 0 });
  }

  private body(data: Record<string, unknown> | undefined) {
    return {
      content: typeof data?.content === 'string' ? data.content : '',
      embeds: Array.isArray(data?.embeds) ? data.embeds : [],
      components: Array.isArray(data?.components) ? data.components : [],
      flags: typeof data?.flags === 'number' ? data.flags : 0,
    };
  }

  private update(id: string, body: Record<string, unknown>): PlaygroundMessage | undefined {
    const message = this.find(id);
    if (!message) return undefined;
    if ('content' in body) message.content = typeof body.content === 'string' ? body.content : '';
    if ('embeds' in body) message.embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if ('components' in body) message.components = Array.isArray(body.components) ? body.components : [];
    if (typeof body.flags === 'number') message.flags = body.flags;
    message.state = 'done';
    message.editedAt = new Date().toISOString();
    this.emit(message);
    return message;
  }

  private add(fields: Omit<PlaygroundMessage, 'id' | 'createdAt' | 'editedAt'>): PlaygroundMessage {
    const message: PlaygroundMessage = { ...fields, id: nextId(), createdAt: new Date().toISOString(), editedAt: undefined };
    this.messages.push(message);
    if (this.messages.length > 500) this.messages.shift();
    this.emit(message);
    return message;
  }

  private emit(message: PlaygroundMessage): void {
    for (const listener of this.listeners) listener({ type: 'message', message });
  }
}
