import { performance } from 'node:perf_hooks';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  InteractionResponseType,
  InteractionType,
  PermissionFlagsBits,
  type APIApplicationCommandOptionChoice,
  type APIInteractionResponse,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { AppError } from '@brain/errors';
import { SAVE_MESSAGE_COMMAND } from '../commands/save-message.ts';
import { MARK_SOLVED_COMMAND } from '../commands/mark-solved.ts';
import { SAVE_THREAD_COMMAND } from '../commands/save-thread.ts';
import type { DevKeyPair } from '../verify/dev-key-pair.ts';
import { parseCommandLine, type ParsedCommandLine } from './parse-command-line.ts';
import type { PlaygroundChannel, PlaygroundMessage } from './playground-channel.ts';
import { PLAYGROUND } from './playground-ids.ts';
import { PLAYGROUND_PERSONAS, playgroundChannelsFor, type PlaygroundPersona } from './playground-server.ts';

export interface SendResult {
  /** HTTP status of POST /interactions. */
  status: number;
  /** The interaction response type Discord would have received (5 = deferred, "thinking…"). */
  responseType: number | undefined;
  /** From sending the signed request to having the acknowledgement. */
  ackMs: number;
  choices?: APIApplicationCommandOptionChoice[];
}

let sequence = 0n;
function snowflake(): string {
  sequence = (sequence + 1n) % 4096n;
  return String((BigInt(Date.now() - 1_420_070_400_000) << 22n) | sequence);
}

const you = { id: PLAYGROUND.userId, username: PLAYGROUND.username, global_name: 'You', discriminator: '0', avatar: null };
/** Where a viewer is and who they are at the playground: a channel of the pretend server, and a persona. */
export interface PlaygroundView {
  channelId: string;
  persona: PlaygroundPersona;
}

const DEFAULT_VIEW: PlaygroundView = { channelId: PLAYGROUND.channelId, persona: 'moderator' };
const MAX_VIEWS = 1000;

/** "You used /sync add channel: #help", as Discord shows above a reply. */
function invocationOf(command: ParsedCommandLine): string {
  const show = (options: ParsedCommandLine['options']): string =>
    options
      .map((o) => {
        if (!('value' in o)) return ` ${o.name}${'options' in o ? show(o.options ?? []) : ''}`;
        const channel = o.type === ApplicationCommandOptionType.Channel ? command.resolvedChannels[String(o.value)] : undefined;
        return ` ${o.name}: ${channel ? `#${channel.name}` : String(o.value)}`;
      })
      .join('');
  return `/${command.name}${show(command.options)}`;
}

/** A member of the pretend server, as Discord shows them in a message's author. */
function member(name: string) {
  let h = 7;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000_007;
  return { id: `2000000000${String(h).padStart(10, '0')}`.slice(0, 19), username: name.toLowerCase(), global_name: name, discriminator: '0', avatar: null };
}

const bot = { id: PLAYGROUND.applicationId, username: 'Company Brain', global_name: null, discriminator: '0', avatar: null, bot: true };

/**
 * Plays Discord for the playground: turns what you type or click into the interaction Discord
 * would send, signs it with the dev key, POSTs it to this server's own /interactions over HTTP,
 * and applies the response to the channel, exactly as Discord applies it.
 */
export class PlaygroundGateway {
  /** Each viewer's channel and persona (default: #general, as a moderator). */
  private readonly views = new Map<string, PlaygroundView>();

  view(viewer: string): PlaygroundView {
    return { ...(this.views.get(viewer) ?? DEFAULT_VIEW) };
  }

  /** Switches a viewer's channel and/or persona; anything else is refused. */
  setView(viewer: string, change: { channelId?: unknown; persona?: unknown }): PlaygroundView {
    const current = this.view(viewer);
    const channelId = change.channelId ?? current.channelId;
    const persona = change.persona ?? current.persona;
    if (!this.channel.channels().some((c) => c.id === channelId) || (persona !== 'member' && persona !== 'moderator')) {
      throw new AppError({ code: 'PLAYGROUND_VIEW_INVALID', message: 'No such channel or persona in the playground.', httpStatus: 400 });
    }
    const viewable = playgroundChannelsFor(persona, this.channel.channels()).some((c) => c.id === channelId);
    if (!viewable && change.channelId !== undefined) {
      throw new AppError({ code: 'PLAYGROUND_VIEW_INVALID', message: 'Only moderators can view that channel.', nextStep: 'Switch to the moderator persona first.', httpStatus: 403 });
    }
    if (!this.views.has(viewer) && this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
    // Becoming the member while in #staff leaves #staff, as losing the role does on Discord.
    this.views.set(viewer, { channelId: viewable ? (channelId as string) : PLAYGROUND.channelId, persona });
    return this.view(viewer);
  }

  /**
   * What this viewer may read: the shared messages and their own ephemeral replies, in the
   * channels their persona can view. The page holds only these, so the member's browser never
   * receives #staff's messages, not merely a sidebar that hides them.
   */
  messagesFor(viewer: string | undefined): PlaygroundMessage[] {
    return this.channel.visibleTo(viewer).filter(this.readerOf(viewer ?? ''));
  }

  /**
   * Whether this viewer's current persona may read a message: its channel is one they can view,
   * and an ephemeral reply is one this persona asked for (an event to stream, a message to act on).
   */
  mayRead(viewer: string, message: Pick<PlaygroundMessage, 'channelId' | 'persona'>): boolean {
    return this.readerOf(viewer)(message);
  }

  /** mayRead's test for one viewer, with their persona and readable channels looked up once. */
  private readerOf(viewer: string): (message: Pick<PlaygroundMessage, 'channelId' | 'persona'>) => boolean {
    const persona = this.view(viewer).persona;
    const readable = new Set(playgroundChannelsFor(persona, this.channel.channels()).map((c) => c.id));
    return (message) => (message.persona === undefined || message.persona === persona) && readable.has(message.channelId);
  }

  /** A message this viewer can see and whose channel their persona can view: what a press or an Apps command may target. */
  private readableMessage(messageId: string, viewer: string): PlaygroundMessage | undefined {
    const message = this.channel.find(messageId, viewer);
    return message && this.mayRead(viewer, message) ? message : undefined;
  }

  constructor(
    private readonly channel: PlaygroundChannel,
    private readonly keys: DevKeyPair,
    private readonly commands: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
  ) {}

  /**
   * A typed line: a slash command, or a plain message (which "Save to brain" can then save).
   * `viewer` is who typed it: an ephemeral reply is theirs alone.
   */
  async send(line: string, viewer: string, interactionsUrl: string): Promise<SendResult | { posted: string; threadId?: string }> {
    const view = this.view(viewer);
    const inForum = this.channel.channels().find((c) => c.id === view.channelId)?.type === 15;
    if (!line.trim().startsWith('/') && inForum) {
      // Typed in a forum: a new post, and the viewer goes into it, as Discord opens a post you make.
      const { thread, message } = this.channel.createForumPost(view.channelId, line);
      this.setView(viewer, { channelId: thread.id });
      return { posted: message.id, threadId: thread.id };
    }
    if (!line.trim().startsWith('/')) return { posted: this.channel.postUserMessage(line.trim(), view.channelId).id };
    if (inForum) {
      throw new AppError({ code: 'PLAYGROUND_FORUM_NO_MESSAGES', message: 'Commands go in a channel or a post, not in the forum itself: open one of its posts, or type a question here to make a new one.', httpStatus: 400 });
    }
    const command = parseCommandLine(line, this.commands, { channels: this.channel.channels() });
    const token = this.channel.openInteraction(invocationOf(command), viewer, undefined, view.channelId, view.persona);
    const resolved = Object.keys(command.resolvedChannels).length > 0 ? { resolved: { channels: command.resolvedChannels } } : {};
    return this.post(interactionsUrl, token, view, {
      type: InteractionType.ApplicationCommand,
      data: { id: snowflake(), name: command.name, type: ApplicationCommandType.ChatInput, options: command.options, ...resolved },
    });
  }

  /** What Discord sends as you type into an autocomplete option (e.g. `/forget source: road`). */
  async autocomplete(line: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const command = parseCommandLine(line, this.commands, { partial: true });
    const spec = this.commands.find((c) => c.name === command.name)?.options?.find((o) => 'autocomplete' in o && o.autocomplete === true);
    if (!spec) return { status: 200, responseType: undefined, ackMs: 0, choices: [] };
    const found = command.options.find((o) => o.name === spec.name);
    const typed = found && 'value' in found ? found.value : '';
    const options = [
      ...command.options.filter((o) => o.name !== spec.name),
      { name: spec.name, type: ApplicationCommandOptionType.String, value: String(typed), focused: true },
    ];
    const view = this.view(viewer);
    return this.post(interactionsUrl, this.channel.openInteraction(`/${command.name}`, viewer, undefined, view.channelId, view.persona), view, {
      type: InteractionType.ApplicationCommandAutocomplete,
      data: { id: snowflake(), name: command.name, type: ApplicationCommandType.ChatInput, options },
    });
  }

  /** A button press on a bot message the viewer can see. */
  async press(messageId: string, customId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const message = this.readableMessage(messageId, viewer);
    if (!message || message.author !== 'bot') throw new AppError({ code: 'PLAYGROUND_MESSAGE_NOT_FOUND', message: 'That message is gone.', httpStatus: 404 });
    const token = this.channel.openInteraction(`pressed a button`, viewer, messageId, message.channelId, this.view(viewer).persona);
    return this.post(interactionsUrl, token, { ...this.view(viewer), channelId: message.channelId }, {
      type: InteractionType.MessageComponent,
      data: { custom_id: customId, component_type: ComponentType.Button },
      message: {
        id: message.id,
        channel_id: message.channelId,
        author: bot,
        content: message.content,
        embeds: message.embeds,
        components: message.components,
        flags: message.flags | (message.ephemeral ? 64 : 0),
        timestamp: message.createdAt,
        attachments: [],
      },
    });
  }

  /** Apps → Save to brain, on a message you can see. */
  async saveMessage(messageId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    return this.messageCommand(SAVE_MESSAGE_COMMAND, messageId, viewer, interactionsUrl);
  }

  /** Apps → Save thread to brain: on a message in a thread or forum post, or on the message that started a thread. */
  async saveThread(messageId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    return this.messageCommand(SAVE_THREAD_COMMAND, messageId, viewer, interactionsUrl);
  }

  /** Apps → Mark solved: on a message in a thread or forum post you started (or as a moderator). */
  async markSolved(messageId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    return this.messageCommand(MARK_SOLVED_COMMAND, messageId, viewer, interactionsUrl);
  }

  private async messageCommand(name: string, messageId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const message = this.readableMessage(messageId, viewer);
    if (!message) throw new AppError({ code: 'PLAYGROUND_MESSAGE_NOT_FOUND', message: 'That message is gone.', httpStatus: 404 });
    const author = message.author === 'user' ? you : message.author === 'member' ? member(message.authorName ?? 'Member') : bot;
    const started = message.startsThread ? this.channel.channels().find((c) => c.id === message.startsThread) : undefined;
    const token = this.channel.openInteraction(name, viewer, undefined, message.channelId, this.view(viewer).persona);
    return this.post(interactionsUrl, token, { ...this.view(viewer), channelId: message.channelId }, {
      type: InteractionType.ApplicationCommand,
      data: {
        id: snowflake(),
        name,
        type: ApplicationCommandType.Message,
        target_id: message.id,
        resolved: {
          messages: {
            [message.id]: {
              id: message.id,
              channel_id: message.channelId,
              author,
              content: message.content,
              embeds: [],
              attachments: [],
              timestamp: message.createdAt,
              ...(started ? { thread: { id: started.id, type: started.type, name: started.name, parent_id: started.parentId } } : {}),
            },
          },
        },
      },
    });
  }

  private async post(interactionsUrl: string, token: string, view: PlaygroundView, fields: Record<string, unknown>): Promise<SendResult> {
    const channel = this.channel.channels().find((c) => c.id === view.channelId);
    if (!channel) throw new AppError({ code: 'PLAYGROUND_VIEW_INVALID', message: 'No such channel in the playground.', httpStatus: 400 });
    const persona = PLAYGROUND_PERSONAS[view.persona];
    const body = JSON.stringify({
      id: snowflake(),
      application_id: PLAYGROUND.applicationId,
      token,
      version: 1,
      guild_id: PLAYGROUND.guildId,
      guild: { id: PLAYGROUND.guildId, locale: 'en-US', features: [] },
      channel_id: channel.id,
      channel: { id: channel.id, type: channel.type, name: channel.name, ...(channel.parentId ? { parent_id: channel.parentId } : {}) },
      member: {
        user: you,
        // The moderator persona manages the pretend server (admin commands); the member does not.
        permissions: String(persona.permissions),
        roles: persona.roles,
        joined_at: new Date(0).toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
      },
      app_permissions: String(PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks),
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': PLAYGROUND.guildId },
      context: 0,
      ...fields,
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const started = performance.now();
    const res = await fetch(interactionsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': this.keys.sign(timestamp, body), 'x-signature-timestamp': timestamp },
      body,
    });
    const ackMs = Math.round((performance.now() - started) * 10) / 10;
    const response = (await res.json().catch(() => undefined)) as APIInteractionResponse | undefined;
    if (res.ok && response) this.channel.acknowledge(token, response);
    const choices = response?.type === InteractionResponseType.ApplicationCommandAutocompleteResult ? (response.data?.choices ?? []) : undefined;
    return { status: res.status, responseType: res.ok ? response?.type : undefined, ackMs, ...(choices ? { choices } : {}) };
  }
}
