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
import type { DevKeyPair } from '../verify/dev-key-pair.ts';
import { parseCommandLine } from './parse-command-line.ts';
import type { PlaygroundChannel } from './playground-channel.ts';
import { PLAYGROUND } from './playground-ids.ts';
import { PLAYGROUND_CHANNELS, PLAYGROUND_PERSONAS, type PlaygroundPersona } from './playground-server.ts';

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
    if (!PLAYGROUND_CHANNELS.some((c) => c.id === channelId) || (persona !== 'member' && persona !== 'moderator')) {
      throw new AppError({ code: 'PLAYGROUND_VIEW_INVALID', message: 'No such channel or persona in the playground.', httpStatus: 400 });
    }
    if (!this.views.has(viewer) && this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
    this.views.set(viewer, { channelId: channelId as string, persona });
    return this.view(viewer);
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
  async send(line: string, viewer: string, interactionsUrl: string): Promise<SendResult | { posted: string }> {
    const view = this.view(viewer);
    if (!line.trim().startsWith('/')) return { posted: this.channel.postUserMessage(line.trim(), view.channelId).id };
    const command = parseCommandLine(line, this.commands);
    const invocation = `/${command.name}${command.options.map((o) => ` ${o.name}: ${String(o.value)}`).join('')}`;
    const token = this.channel.openInteraction(invocation, viewer, undefined, view.channelId);
    return this.post(interactionsUrl, token, view, {
      type: InteractionType.ApplicationCommand,
      data: { id: snowflake(), name: command.name, type: ApplicationCommandType.ChatInput, options: command.options },
    });
  }

  /** What Discord sends as you type into an autocomplete option (e.g. `/forget source: road`). */
  async autocomplete(line: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const command = parseCommandLine(line, this.commands, { partial: true });
    const spec = this.commands.find((c) => c.name === command.name)?.options?.find((o) => 'autocomplete' in o && o.autocomplete === true);
    if (!spec) return { status: 200, responseType: undefined, ackMs: 0, choices: [] };
    const typed = command.options.find((o) => o.name === spec.name)?.value ?? '';
    const options = [
      ...command.options.filter((o) => o.name !== spec.name),
      { name: spec.name, type: ApplicationCommandOptionType.String, value: String(typed), focused: true },
    ];
    const view = this.view(viewer);
    return this.post(interactionsUrl, this.channel.openInteraction(`/${command.name}`, viewer, undefined, view.channelId), view, {
      type: InteractionType.ApplicationCommandAutocomplete,
      data: { id: snowflake(), name: command.name, type: ApplicationCommandType.ChatInput, options },
    });
  }

  /** A button press on a bot message the viewer can see. */
  async press(messageId: string, customId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const message = this.channel.find(messageId, viewer);
    if (!message || message.author !== 'bot') throw new AppError({ code: 'PLAYGROUND_MESSAGE_NOT_FOUND', message: 'That message is gone.', httpStatus: 404 });
    const token = this.channel.openInteraction(`pressed a button`, viewer, messageId, message.channelId);
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

  /** Apps → Save to brain, on a message you posted. */
  async saveMessage(messageId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const message = this.channel.find(messageId, viewer);
    if (!message) throw new AppError({ code: 'PLAYGROUND_MESSAGE_NOT_FOUND', message: 'That message is gone.', httpStatus: 404 });
    const author = message.author === 'user' ? you : bot;
    const token = this.channel.openInteraction(SAVE_MESSAGE_COMMAND, viewer, undefined, message.channelId);
    return this.post(interactionsUrl, token, { ...this.view(viewer), channelId: message.channelId }, {
      type: InteractionType.ApplicationCommand,
      data: {
        id: snowflake(),
        name: SAVE_MESSAGE_COMMAND,
        type: ApplicationCommandType.Message,
        target_id: message.id,
        resolved: {
          messages: {
            [message.id]: { id: message.id, channel_id: message.channelId, author, content: message.content, embeds: [], attachments: [], timestamp: message.createdAt },
          },
        },
      },
    });
  }

  private async post(interactionsUrl: string, token: string, view: PlaygroundView, fields: Record<string, unknown>): Promise<SendResult> {
    const channel = PLAYGROUND_CHANNELS.find((c) => c.id === view.channelId) ?? PLAYGROUND_CHANNELS[0];
    const persona = PLAYGROUND_PERSONAS[view.persona];
    const body = JSON.stringify({
      id: snowflake(),
      application_id: PLAYGROUND.applicationId,
      token,
      version: 1,
      guild_id: PLAYGROUND.guildId,
      guild: { id: PLAYGROUND.guildId, locale: 'en-US', features: [] },
      channel_id: channel.id,
      channel: { id: channel.id, type: 0, name: channel.name },
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
