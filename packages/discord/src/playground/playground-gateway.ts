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
const bot = { id: PLAYGROUND.applicationId, username: 'Company Brain', global_name: null, discriminator: '0', avatar: null, bot: true };

/**
 * Plays Discord for the playground: turns what you type or click into the interaction Discord
 * would send, signs it with the dev key, POSTs it to this server's own /interactions over HTTP,
 * and applies the response to the channel, exactly as Discord applies it.
 */
export class PlaygroundGateway {
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
    if (!line.trim().startsWith('/')) return { posted: this.channel.postUserMessage(line.trim()).id };
    const command = parseCommandLine(line, this.commands);
    const invocation = `/${command.name}${command.options.map((o) => ` ${o.name}: ${String(o.value)}`).join('')}`;
    const token = this.channel.openInteraction(invocation, viewer);
    return this.post(interactionsUrl, token, {
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
    return this.post(interactionsUrl, this.channel.openInteraction(`/${command.name}`, viewer), {
      type: InteractionType.ApplicationCommandAutocomplete,
      data: { id: snowflake(), name: command.name, type: ApplicationCommandType.ChatInput, options },
    });
  }

  /** A button press on a bot message the viewer can see. */
  async press(messageId: string, customId: string, viewer: string, interactionsUrl: string): Promise<SendResult> {
    const message = this.channel.find(messageId, viewer);
    if (!message || message.author !== 'bot') throw new AppError({ code: 'PLAYGROUND_MESSAGE_NOT_FOUND', message: 'That message is gone.', httpStatus: 404 });
    const token = this.channel.openInteraction(`pressed a button`, viewer, messageId);
    return this.post(interactionsUrl, token, {
      type: InteractionType.MessageComponent,
      data: { custom_id: customId, component_type: ComponentType.Button },
      message: {
        id: message.id,
        channel_id: PLAYGROUND.channelId,
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
    const token = this.channel.openInteraction(SAVE_MESSAGE_COMMAND, viewer);
    return this.post(interactionsUrl, token, {
      type: InteractionType.ApplicationCommand,
      data: {
        id: snowflake(),
        name: SAVE_MESSAGE_COMMAND,
        type: ApplicationCommandType.Message,
        target_id: message.id,
        resolved: {
          messages: {
            [message.id]: { id: message.id, channel_id: PLAYGROUND.channelId, author, content: message.content, embeds: [], attachments: [], timestamp: message.createdAt },
          },
        },
      },
    });
  }

  private async post(interactionsUrl: string, token: string, fields: Record<string, unknown>): Promise<SendResult> {
    const body = JSON.stringify({
      id: snowflake(),
      application_id: PLAYGROUND.applicationId,
      token,
      version: 1,
      guild_id: PLAYGROUND.guildId,
      guild: { id: PLAYGROUND.guildId, locale: 'en-US', features: [] },
      channel_id: PLAYGROUND.channelId,
      channel: { id: PLAYGROUND.channelId, type: 0, name: PLAYGROUND.channelName },
      member: {
        user: you,
        // The person at the playground is its operator: an admin of its pretend server.
        permissions: String(PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild),
        roles: [],
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
