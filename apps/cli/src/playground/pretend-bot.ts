import { randomUUID } from 'node:crypto';
import type { Database } from '@brain/db';
import { enableAutoanswer, listAutoanswerChannels, PLAYGROUND, PRETEND_FORUM_ID, startGatewayRunner, type AskFunction, type GatewayRunner } from '@brain/discord';
import type { Logger } from '@brain/observability';
import type { PretendDiscord } from './pretend-discord.ts';

export interface PretendBotInput {
  db: Database;
  logger: Logger;
  ask: AskFunction;
  localWorkspaceId: string;
  pretend: PretendDiscord;
}

/**
 * The playground's #help forum answers new posts by itself: /autoanswer is on there (a short
 * line when nothing covers a post, the Moderator role for "Still need help?"), and the real
 * Gateway runner connects to the pretend server's fake Gateway with its own token, so a newcomer
 * sees what a real server's newcomer would. Its lease is this process's own: each `brain start`
 * has its own pretend server, so two instances must not stand by for one another.
 */
export async function startPretendBot(input: PretendBotInput): Promise<GatewayRunner> {
  const on = await listAutoanswerChannels(input.db, input.localWorkspaceId);
  if (!on.some((c) => c.channelId === PRETEND_FORUM_ID)) {
    await enableAutoanswer(input.db, {
      workspaceId: input.localWorkspaceId,
      guildId: PLAYGROUND.guildId,
      channelId: PRETEND_FORUM_ID,
      channelName: 'help',
      whenUncovered: 'line',
      staffRoleId: PLAYGROUND.moderatorRoleId,
      enabledBy: 'playground',
    });
  }
  return startGatewayRunner({
    db: input.db,
    logger: input.logger.child({ component: 'playground-gateway' }),
    botToken: input.pretend.bot.token,
    apiBase: input.pretend.bot.apiBase,
    leaseName: `playground:${randomUUID()}`,
    // Always: the pretend forum is on (above), and the real servers' check leaves it out.
    wanted: async () => true,
    ask: input.ask,
    // The playground's server is the operator's own local workspace: never metered.
    checkEntitlement: async () => ({ allowed: true }),
    guildFacts: input.pretend.guildFacts,
    workspaceOf: async (guildId) => (guildId === PLAYGROUND.guildId ? { id: input.localWorkspaceId } : undefined),
  });
}
