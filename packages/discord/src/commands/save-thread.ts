import { ContextMenuCommandBuilder } from '@discordjs/builders';
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  type APIMessage,
  type APIMessageApplicationCommandInteraction,
} from 'discord-api-types/v10';
import { saveSource } from '@brain/ingest';
import { threadMessages } from '../history/thread-messages.ts';
import type { MessageCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { indexingThreadMessage, readingThreadMessage, savedThreadMessage } from '../render/thread-messages.ts';
import { SAVE_MESSAGE_COMMAND } from './save-message.ts';

export const SAVE_THREAD_COMMAND = 'Save thread to brain';

const THREAD_TYPES = new Set<number>([ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread]);
/** Progress edits at most this often: each is a request against the interaction's webhook. */
const PROGRESS_EVERY_MS = 1500;

export interface TargetThread {
  id: string;
  name: string | null;
  parentId: string | null;
  private: boolean;
  /** Discord's own count, when the payload carries it (approximate for very old threads). */
  messageCount: number | null;
}

/**
 * The thread to save: the one the command was used in (a thread or forum post), else the one the
 * target message started. Decided from the payload alone.
 */
export function targetThread(interaction: APIMessageApplicationCommandInteraction): TargetThread | undefined {
  const channel = interaction.channel as (typeof interaction.channel & { name?: string | null; parent_id?: string | null; message_count?: number }) | undefined;
  if (channel && THREAD_TYPES.has(channel.type)) {
    return { id: channel.id, name: channel.name ?? null, parentId: channel.parent_id ?? null, private: channel.type === ChannelType.PrivateThread, messageCount: channel.message_count ?? null };
  }
  const message: APIMessage | undefined = interaction.data.resolved.messages[interaction.data.target_id];
  const started = message?.thread as { id: string; type: ChannelType; name?: string | null; parent_id?: string | null; message_count?: number } | undefined;
  if (message && started) {
    return { id: started.id, name: started.name ?? null, parentId: started.parent_id ?? message.channel_id, private: started.type === ChannelType.PrivateThread, messageCount: started.message_count ?? null };
  }
  return undefined;
}

/** "Save thread to brain" on a message: the whole thread as one source, each message citable by its link. */
export const saveThreadCommand: MessageCommand = {
  kind: 'message',
  entitlement: 'save',
  definition: new ContextMenuCommandBuilder()
    .setName(SAVE_THREAD_COMMAND)
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction, deps) {
    if (!targetThread(interaction)) {
      return {
        kind: 'reply',
        ephemeral: true,
        message: notice(`“${SAVE_THREAD_COMMAND}” saves a whole thread: use it on a message inside a thread or forum post, or on the message that started a thread. This message is in neither; to save just this message, use “${SAVE_MESSAGE_COMMAND}”.`),
      };
    }
    if (!deps.history) {
      return {
        kind: 'reply',
        ephemeral: true,
        message: notice(
          `Reading a whole thread needs the bot’s own token, and this brain has none. Ask the operator to set \`DISCORD_BOT_TOKEN\` (Developer Portal → Bot → Token), switch on the Message Content intent there, and give the bot View Channels and Read Message History; then try again. “${SAVE_MESSAGE_COMMAND}” still saves single messages.`,
        ),
      };
    }
    return { kind: 'defer', ephemeral: false };
  },

  async run(ctx) {
    const thread = targetThread(ctx.interaction) as TargetThread;
    const history = ctx.deps.history;
    if (!history) throw new Error('unreachable: acknowledged without history');
    const guildId = ctx.interaction.guild_id ?? '0';
    const label = thread.name ?? 'this thread';

    await ctx.responder.edit(readingThreadMessage(label, thread.messageCount, 0));
    let lastEdit = Date.now();
    const raw = await history.readAll(thread.id, {
      signal: ctx.signal,
      onPage: async (read) => {
        if (Date.now() - lastEdit < PROGRESS_EVERY_MS) return;
        lastEdit = Date.now();
        await ctx.responder.edit(readingThreadMessage(label, thread.messageCount, read));
      },
    });
    const messages = threadMessages(raw, { guildId, threadId: thread.id, parentId: thread.parentId });
    const name = thread.name ?? firstWords(messages[0]?.content) ?? 'Discord thread';

    const savedAtMs = Date.now();
    const { artifacts, skipped } = await saveSource(
      ctx.deps.db,
      {
        workspaceId: ctx.workspaceId,
        input: { kind: 'discord_thread', guildId, threadId: thread.id, parentId: thread.parentId, private: thread.private, name, messages },
        savedBy: `discord:${ctx.user.id}`,
        // A public thread's readers are its parent's; a private thread's, its own.
        origin: { guildId, channelId: thread.id, thread: true, parentId: thread.parentId, privateThread: thread.private, messageIds: messages.map((m) => m.id) },
      },
      { rateLimits: ctx.deps.saveRateLimits },
    );
    await ctx.responder.edit(indexingThreadMessage(name, messages.length));
    const progress = await ctx.deps.watcher.wait(
      ctx.workspaceId,
      artifacts.map((a) => a.artifactId),
      AbortSignal.any([ctx.signal, ctx.signals.draining]),
    );
    await ctx.responder.edit(savedThreadMessage({ artifacts, progress, skipped, messages: messages.length, savedAtMs }));
  },
};

function firstWords(text: string | undefined): string | undefined {
  const flat = text?.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
