import { randomBytes } from 'node:crypto';
import { snowflakeAt } from './fake-discord-message.ts';

// Discord's wire numbers (discord-api-types' InteractionType, ApplicationCommandType…), written
// out so the fakes carry no Discord library of their own.
const PING = 1;
const APPLICATION_COMMAND = 2;
const MESSAGE_COMPONENT = 3;
const AUTOCOMPLETE = 4;
const CHAT_INPUT = 1;
const MESSAGE_COMMAND = 3;
const STRING_OPTION = 3;
const BOOLEAN_OPTION = 5;
const BUTTON = 2;

/** A member of a guild with Send Messages only: what an ordinary user's interaction carries. */
export const MEMBER_PERMISSIONS = '2048';

export const DEFAULT_INTERACTION_USER = { id: '300000000000000001', username: 'ada', global_name: 'Ada', discriminator: '0', avatar: null };

let sequence = 0;

export interface InteractionContext {
  applicationId: string;
  /** Absent: a DM, which carries `user` instead of `member`. */
  guildId?: string | undefined;
  channelId?: string;
  /** The channel object Discord sends along (type, parent, thread flags), when a handler reads it. */
  channel?: Record<string, unknown>;
  /** The member's permissions in the channel, as a decimal bit string. */
  permissions?: string;
  /** The bot's own permissions there (`app_permissions`). */
  appPermissions?: string;
  user?: { id: string; username: string } & Record<string, unknown>;
  /** Prefix of the interaction token, to tell callers' follow-ups apart (default `tok_`, then random). */
  tokenPrefix?: string;
}

/**
 * Any interaction as Discord delivers it to the interactions endpoint, unsigned: a unique id
 * (a snowflake of now) and token, the guild member or DM user, and `body` (type, data, message).
 * Every suite builds its interactions through this one function, so the shape cannot drift apart.
 */
export interface InteractionEnvelope {
  id: string;
  application_id: string;
  token: string;
  version: number;
  channel_id: string;
  [field: string]: unknown;
}

export function discordInteraction<B extends { type: number }>(context: InteractionContext, body: B): InteractionEnvelope & B {
  sequence += 1;
  const user = context.user ?? DEFAULT_INTERACTION_USER;
  const channelId = context.channelId ?? (context.channel?.id as string | undefined) ?? '200000000000000001';
  return {
    id: snowflakeAt(Date.now(), sequence % 4096),
    application_id: context.applicationId,
    token: `${context.tokenPrefix ?? 'tok_'}${process.pid}x${sequence}${randomBytes(6).toString('hex')}`,
    version: 1,
    channel_id: channelId,
    ...(context.channel ? { channel: context.channel } : {}),
    ...(context.guildId
      ? {
          guild_id: context.guildId,
          member: { user, permissions: context.permissions ?? MEMBER_PERMISSIONS, roles: [], joined_at: '2026-01-01T00:00:00Z', deaf: false, mute: false, flags: 0 },
        }
      : { user }),
    ...(context.appPermissions ? { app_permissions: context.appPermissions } : {}),
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: context.guildId ? { '0': context.guildId } : {},
    ...body,
  };
}

export type InteractionOption = { name: string; value: string | boolean; type?: number; focused?: boolean };

function commandOptions(options: readonly InteractionOption[]) {
  return options.map((o) => ({ name: o.name, type: o.type ?? (typeof o.value === 'boolean' ? BOOLEAN_OPTION : STRING_OPTION), value: o.value, ...(o.focused ? { focused: true } : {}) }));
}

/** `/name option: value …` (a chat-input command). */
export function slashCommand(context: InteractionContext, name: string, options: readonly InteractionOption[] = [], extra: { resolved?: object } = {}) {
  return discordInteraction(context, {
    type: APPLICATION_COMMAND,
    data: { id: '1', name, type: CHAT_INPUT, options: commandOptions(options), ...(extra.resolved ? { resolved: extra.resolved } : {}) },
  });
}

/** Discord asking for a command's autocomplete choices while the user types. */
export function autocompleteRequest(context: InteractionContext, name: string, options: readonly InteractionOption[]) {
  return discordInteraction(context, { type: AUTOCOMPLETE, data: { id: '1', name, type: CHAT_INPUT, options: commandOptions(options) } });
}

/** A press of the button `customId` under one of the bot's messages. */
export function buttonPress(context: InteractionContext, customId: string) {
  return discordInteraction(context, {
    type: MESSAGE_COMPONENT,
    data: { custom_id: customId, component_type: BUTTON },
    message: {
      id: snowflakeAt(Date.now()),
      channel_id: context.channelId ?? '200000000000000001',
      content: '',
      embeds: [],
      components: [],
      author: { id: context.applicationId, username: 'bot', discriminator: '0', avatar: null },
      timestamp: new Date().toISOString(),
      attachments: [],
      flags: 0,
    },
  });
}

/** A message-menu command (Apps → `name`) on `target`, which Discord resolves into the payload. */
export function messageMenuCommand(context: InteractionContext, name: string, target: { id: string } & Record<string, unknown>) {
  return discordInteraction(context, {
    type: APPLICATION_COMMAND,
    data: { id: '2', name, type: MESSAGE_COMMAND, target_id: target.id, resolved: { messages: { [target.id]: target } } },
  });
}

/** Discord's endpoint check. */
export function pingInteraction(applicationId: string) {
  return discordInteraction({ applicationId }, { type: PING });
}

export interface GuildSlashCommandInput {
  applicationId: string;
  guildId: string;
  name: string;
  /** String options, as `/ask question: …` sends them. */
  options?: { name: string; value: string }[];
  /** Kept for callers that numbered their interactions; ids and tokens are unique regardless. */
  sequence?: number;
  /** Prefix of the interaction token, to tell the callers' follow-ups apart. */
  tokenPrefix: string;
}

/** A guild slash command from an ordinary member, for the benchmarks and process-level suites. */
export function guildSlashCommand(input: GuildSlashCommandInput): InteractionEnvelope {
  return slashCommand({ applicationId: input.applicationId, guildId: input.guildId, channelId: '910000000000000003', tokenPrefix: input.tokenPrefix }, input.name, input.options ?? []);
}
