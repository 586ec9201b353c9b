import { ChannelType, type APIGuildForumChannel, type APIThreadChannel } from 'discord-api-types/v10';
import { withWorkspace, type Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import type { DiscordHistory } from '../history/discord-history.ts';
import { workspaceOfGuild } from '../queries/find-workspace-by-guild.ts';
import { solvedByTags } from '../sync/read-thread-source.ts';
import { markSolvedAndSave } from './mark-solved.ts';
import { solvedOptIn } from './solved-opt-in.ts';
import { solvedThreadIds } from './solved-threads.ts';

/** The reactions that mark a thread solved. */
export const SOLVED_EMOJI = new Set(['✅', '✔️', '☑️']);

const THREAD_TYPES = new Set<number>([ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread]);

export interface SolvedSignalDeps {
  db: Database;
  history: DiscordHistory;
  logger: Logger;
  botUserId?: string | undefined;
  workspaceOf?: ((guildId: string) => Promise<{ id: string } | undefined>) | undefined;
}

/** MESSAGE_REACTION_ADD as Discord sends it (the fields read here). */
export interface ReactionAdd {
  guild_id?: string;
  channel_id: string;
  message_id: string;
  user_id: string;
  member?: { roles?: string[] };
  emoji: { id: string | null; name: string | null };
}

export type SolvedSignalResult = 'saved' | 'refreshed' | 'ignored' | 'not-allowed' | 'not-opted-in' | 'not-a-thread' | 'forgotten' | 'nothing-to-save';

/**
 * A ✅ in a thread: it marks the thread solved, and saves it as a source, when the reaction comes
 * from the thread's author (who asked) or from a member with the channel's staff role, in a
 * channel the server has under /autoanswer or /sync. Anyone else's ✅ changes nothing.
 */
export async function onSolvedReaction(deps: SolvedSignalDeps, d: ReactionAdd): Promise<SolvedSignalResult> {
  if (!d.guild_id || !d.emoji.name || !SOLVED_EMOJI.has(d.emoji.name) || d.user_id === deps.botUserId) return 'ignored';
  const workspace = await workspaceOfGuild(deps, d.guild_id);
  if (!workspace) return 'ignored';
  const thread = await deps.history.channel(d.channel_id);
  if (!THREAD_TYPES.has(thread.type)) return 'not-a-thread';
  const t = thread as APIThreadChannel;
  if (!t.parent_id) return 'not-a-thread';
  const optIn = await withWorkspace(deps.db, workspace.id, (tx) => solvedOptIn(tx, workspace.id, t.parent_id as string));
  if (!optIn.optedIn) return 'not-opted-in';
  const staff = optIn.staffRoleId !== null && (d.member?.roles ?? []).includes(optIn.staffRoleId);
  if (d.user_id !== t.owner_id && !staff) return 'not-allowed';
  return save(deps, { workspaceId: workspace.id, guildId: d.guild_id, threadId: t.id, how: 'reaction', userId: d.user_id });
}

/** THREAD_UPDATE as Discord sends it (the fields read here): a full thread channel. */
export type ThreadUpdate = Pick<APIThreadChannel, 'id' | 'type' | 'parent_id' | 'applied_tags' | 'owner_id'> & { guild_id?: string };

/**
 * A forum post given a tag that says solved (a moderator or its author chose it): the post is
 * marked solved and saved, in a forum the server has under /autoanswer or /sync.
 */
export async function onSolvedTag(deps: SolvedSignalDeps, d: ThreadUpdate): Promise<SolvedSignalResult> {
  if (!d.guild_id || !d.parent_id || !THREAD_TYPES.has(d.type) || (d.applied_tags ?? []).length === 0) return 'ignored';
  const workspace = await workspaceOfGuild(deps, d.guild_id);
  if (!workspace) return 'ignored';
  const parentId = d.parent_id;
  const { optIn, marked } = await withWorkspace(deps.db, workspace.id, async (tx) => ({
    optIn: await solvedOptIn(tx, workspace.id, parentId),
    marked: (await solvedThreadIds(tx, workspace.id)).has(d.id),
  }));
  if (!optIn.optedIn) return 'not-opted-in';
  // Every later THREAD_UPDATE (a rename, archiving) still carries the tag: one save is enough.
  if (marked) return 'ignored';
  const forum = (await deps.history.channel(parentId)) as APIGuildForumChannel;
  const names = new Map((forum.available_tags ?? []).map((t) => [t.id, t.name]));
  if (!solvedByTags((d.applied_tags ?? []).flatMap((id) => (names.has(id) ? [names.get(id) as string] : [])))) return 'ignored';
  // Who applied the tag is not in the event; the mark names the post's author, whose post it is.
  return save(deps, { workspaceId: workspace.id, guildId: d.guild_id, threadId: d.id, how: 'tag', userId: d.owner_id ?? 'tag' });
}

async function save(deps: SolvedSignalDeps, mark: Parameters<typeof markSolvedAndSave>[2]): Promise<SolvedSignalResult> {
  const result = await markSolvedAndSave(deps.db, deps.history, mark);
  deps.logger.info({ workspaceId: mark.workspaceId, threadId: mark.threadId, how: mark.how, status: result.status }, 'thread marked solved');
  if (result.status === 'saved') return result.created ? 'saved' : 'refreshed';
  if (result.status === 'forgotten' || result.status === 'nothing-to-save') return result.status;
  if (result.status === 'not-a-thread') return 'not-a-thread';
  return 'ignored';
}
