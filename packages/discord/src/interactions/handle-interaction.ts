import { InteractionResponseType, InteractionType, MessageFlags, type APIInteraction, type APIInteractionResponse } from 'discord-api-types/v10';
import { lazyChild, type InteractionMetrics, type Logger } from '@brain/observability';
import { claimInteraction } from '../queries/claim-interaction.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import type { DiscordApi } from '../rest/discord-api.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { NO_MENTIONS } from '../rest/outgoing-message.ts';
import { InteractionResponder } from '../rest/responder.ts';
import { errorNotice, notice } from '../render/notice.ts';
import { noPreview } from '../render/text.ts';
import type { WorkspaceResolver } from '../workspace/resolve-workspace.ts';
import type { InFlightWork, WorkSignals } from './in-flight.ts';
import { actingUser } from './options.ts';
import { isServerAdmin } from './permissions.ts';
import type { RecentIds } from './recent-ids.ts';
import { routeInteraction, type Routed } from './route-interaction.ts';
import type { CommandDeps, InteractionOrigin, RunContext, WorkspaceLinks } from './types.ts';

export interface InteractionHandlerOptions {
  deps: CommandDeps;
  /**
   * History per origin, when they differ: the playground's pretend server is read from its own
   * fake Discord, real guilds with the bot token. Absent: `deps.history` for every origin.
   */
  histories?: Record<InteractionOrigin, DiscordHistory | undefined>;
  /** guild → workspace, per origin; the playground's maps its dev server to the local workspace. */
  workspaces: Record<InteractionOrigin, WorkspaceResolver | undefined>;
  /** Where follow-ups go, per origin: Discord, or the playground's emulator. */
  apis: Record<InteractionOrigin, DiscordApi | undefined>;
  links: WorkspaceLinks;
  inFlight: InFlightWork;
  recentIds: RecentIds;
  /**
   * 'database' (default): interactions_seen decides across instances. 'process': the in-memory set
   * alone, for the embedded database, which one process holds exclusively (so there is no other
   * instance), sparing a write per interaction; a replay right after a restart is then not caught.
   */
  dedupe?: 'database' | 'process';
  logger: Logger;
  /** Counts how the work after each deferred acknowledgement ended. */
  metrics?: InteractionMetrics | undefined;
  now?: () => number;
}

export type InteractionHandler = (interaction: APIInteraction, origin: InteractionOrigin, receivedAtMs: number) => Promise<APIInteractionResponse>;

function reply(message: OutgoingMessage, ephemeral: boolean): APIInteractionResponse {
  // An immediate reply never pings: pingRoles is for the one follow-up that must.
  const { pingRoles: _never, ...fields } = message;
  return {
    type: InteractionResponseType.ChannelMessageWithSource,
    data: { ...fields, flags: message.flags | (ephemeral ? MessageFlags.Ephemeral : 0), allowed_mentions: NO_MENTIONS },
  };
}

/**
 * Decides the acknowledgement of a verified interaction (within milliseconds: no I/O except a
 * cached workspace lookup, and autocomplete's one query), and starts the slow work after it.
 * Every deferred interaction ends in an edit: the result, or the error and what to do about it.
 */
export function createInteractionHandler(options: InteractionHandlerOptions): InteractionHandler {
  const now = options.now ?? Date.now;

  const depsByOrigin = (origin: InteractionOrigin): CommandDeps => (options.histories ? { ...options.deps, history: options.histories[origin] } : options.deps);

  return async function handle(interaction, origin, receivedAtMs) {
    if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
    const deps = depsByOrigin(origin);
    const routed = routeInteraction(interaction);
    // Built at its first line, not at every acknowledgement: on the thread that acknowledges, and
    // held by a queued /ask until its turn (lazyChild says why it costs).
    const log = lazyChild(options.logger, { interactionId: interaction.id, origin, guildId: interaction.guild_id, command: routed?.label });
    const isAutocomplete = routed?.kind === 'autocomplete';
    const refuse = (text: string): APIInteractionResponse =>
      isAutocomplete ? { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } } : reply(notice(text), true);

    if (!routed) {
      log.warn({ type: interaction.type }, 'interaction for a command or button this release does not know');
      return refuse("I don't know that command (any more). A server admin can refresh the commands with `brain register-commands`.");
    }
    if (!interaction.guild_id) return refuse('I only work inside a server: my answers come from what that server saved. Use me in a channel of a server that installed Company Brain.');

    const resolver = options.workspaces[origin];
    if (!resolver) return refuse('This kind of request is not enabled on this server.');
    const workspace = await resolver.resolve(interaction.guild_id);
    if (workspace.kind === 'not-installed') {
      return refuse(`This server hasn't installed Company Brain yet. A server admin can install it here: ${noPreview(options.links.install(interaction.guild_id))}`);
    }
    if (workspace.kind === 'unclaimed') {
      return refuse(`Company Brain is installed here, but an admin needs to claim this workspace before it can be used: ${noPreview(options.links.claim(interaction.guild_id))}`);
    }
    if (routed.handler.adminOnly && !isServerAdmin(interaction)) {
      return refuse('Only server admins (Manage Server) can do that.');
    }

    if (routed.kind === 'autocomplete') {
      const choices = await Promise.resolve(routed.handler.autocomplete?.({ interaction: routed.interaction, workspaceId: workspace.workspaceId, deps }) ?? []).catch(
        (error: unknown) => {
          log.warn({ err: error }, 'autocomplete failed; offering no choices');
          return [];
        },
      );
      return { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } };
    }

    const ack = acknowledge(routed, deps);
    if (ack.kind === 'reply') return reply(ack.message, ack.ephemeral);

    // A second delivery of the same interaction gets the same acknowledgement and no second effect.
    const duplicate = options.recentIds.checkAndAdd(interaction.id);
    if (duplicate) log.info('interaction already received: acknowledging again, doing nothing');
    else if (routed.handler.run) {
      options.inFlight.start(routed.label, (signals) => runWork(routed, workspace.workspaceId, origin, deps, receivedAtMs, signals, log));
    }
    return ack.kind === 'defer'
      ? { type: InteractionResponseType.DeferredChannelMessageWithSource, ...(ack.ephemeral ? { data: { flags: MessageFlags.Ephemeral } } : {}) }
      : { type: InteractionResponseType.DeferredMessageUpdate };
  };

  function acknowledge(routed: Exclude<Routed, { kind: 'autocomplete' }>, deps: CommandDeps) {
    switch (routed.kind) {
      case 'slash':
        return routed.handler.acknowledge(routed.interaction, deps);
      case 'message':
        return routed.handler.acknowledge(routed.interaction, deps);
      case 'button':
        return routed.handler.acknowledge(routed.interaction, deps);
    }
  }

  async function runWork(
    routed: Exclude<Routed, { kind: 'autocomplete' }>,
    workspaceId: string,
    origin: InteractionOrigin,
    deps: CommandDeps,
    receivedAtMs: number,
    signals: WorkSignals,
    log: Logger,
  ): Promise<void> {
    const { interaction } = routed;
    const api = options.apis[origin];
    if (!api) {
      log.error('no Discord API configured for this origin: the deferred reply cannot be edited');
      return;
    }
    const responder = new InteractionResponder({
      api,
      applicationId: interaction.application_id,
      token: interaction.token,
      interactionId: interaction.id,
      receivedAtMs,
      logger: log,
      now,
    });
    const started = performance.now();
    const finished = (outcome: string) => options.metrics?.finished(routed.label, outcome);
    try {
      if (options.dedupe !== 'process' && !(await claimInteraction(deps.db, interaction.id))) {
        log.info('interaction already handled by another delivery: skipping');
        finished('duplicate');
        return;
      }
      if (routed.handler.entitlement) {
        const entitled = await deps.checkEntitlement(workspaceId, routed.handler.entitlement);
        if (!entitled.allowed) {
          await responder.edit(notice(entitled.message));
          finished('not_entitled');
          return;
        }
      }
      const ctx: RunContext<typeof interaction> = {
        interaction,
        workspaceId,
        origin,
        user: actingUser(interaction),
        responder,
        deps,
        signal: AbortSignal.any([signals.stop, AbortSignal.timeout(Math.max(1, responder.msLeft()))]),
        signals,
        log,
      };
      await (routed.handler.run as (c: typeof ctx) => Promise<void>)(ctx);
      log.info({ ms: Math.round(performance.now() - started) }, 'interaction done');
      finished('done');
    } catch (error) {
      const stopped = signals.stop.aborted;
      finished(stopped ? 'stopped' : 'failed');
      log.warn({ err: error, stopped, ms: Math.round(performance.now() - started) }, 'interaction failed: editing the reply with the error');
      await responder.edit(stopped ? notice('⚠️ I was restarted before I could finish. Please try again.') : errorNotice(error));
    }
  }
}
