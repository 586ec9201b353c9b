import { InteractionResponseType, InteractionType, MessageFlags, type APIInteraction, type APIInteractionResponse } from 'discord-api-types/v10';
import type { InteractionMetrics, Logger } from '@brain/observability';
import type { DiscordHistory } from '../history/discord-history.ts';
import type { DiscordApi } from '../rest/discord-api.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { NO_MENTIONS } from '../rest/outgoing-message.ts';
import { errorNotice, notice } from '../render/notice.ts';
import { noPreview } from '../render/text.ts';
import type { WorkspaceResolver } from '../workspace/resolve-workspace.ts';
import { createDeferredRunner, deferredResponder, interactionLogger, type DeferredHandOff, type DeferredWork, type InteractionDedupe } from './deferred-work.ts';
import type { InFlightWork } from './in-flight.ts';
import { isServerAdmin } from './permissions.ts';
import type { RecentIds } from './recent-ids.ts';
import { routeInteraction, type Routed } from './route-interaction.ts';
import type { CommandDeps, InteractionOrigin, WorkspaceLinks } from './types.ts';

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
  dedupe?: InteractionDedupe;
  logger: Logger;
  /** Counts how the work after each deferred acknowledgement ended. */
  metrics?: InteractionMetrics | undefined;
  /**
   * Takes deferred work off this thread when it can (`brain start`: /ask on the answering
   * thread, so the backlog of acknowledged questions and their edits live there). What it does
   * not take runs here, in `inFlight`.
   */
  handOff?: DeferredHandOff | undefined;
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
  const runDeferred = createDeferredRunner({
    deps: options.deps,
    ...(options.histories ? { histories: options.histories } : {}),
    apis: options.apis,
    dedupe: options.dedupe ?? 'database',
    logger: options.logger,
    now,
  });
  const finished = (label: string, outcome: string) => {
    if (outcome !== 'no_api') options.metrics?.finished(label, outcome);
  };

  return async function handle(interaction, origin, receivedAtMs) {
    if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
    const deps = depsByOrigin(origin);
    const routed = routeInteraction(interaction);
    // Built at its first line, not at every acknowledgement: on the thread that acknowledges, and
    // held by a queued /ask until its turn (lazyChild says why it costs).
    const log = interactionLogger(options.logger, interaction, origin, routed?.label);
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
      const work: DeferredWork = { label: routed.label, interaction, origin, workspaceId: workspace.workspaceId, receivedAtMs };
      const taken = options.handOff?.take(work);
      if (taken) followHandedOff(work, taken);
      else options.inFlight.start(routed.label, (signals) => runDeferred(work, signals, log).then((outcome) => finished(routed.label, outcome)));
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

  /**
   * The outcome of work done elsewhere; if it was lost there, the error is edited in from here.
   * It keeps only the few strings that edit needs, not the interaction: the backlog's heap is the
   * other thread's.
   */
  function followHandedOff(work: DeferredWork, taken: Promise<string>): void {
    const { label, origin, receivedAtMs } = work;
    const reply = { id: work.interaction.id, application_id: work.interaction.application_id, token: work.interaction.token, guild_id: work.interaction.guild_id };
    taken
      .then(
        (outcome) => finished(label, outcome),
        async (error: unknown) => {
          finished(label, 'failed');
          const log = interactionLogger(options.logger, reply, origin, label);
          log.warn({ err: error }, 'handed-over interaction work was lost: editing the reply with the error');
          const api = options.apis[origin];
          if (api) await deferredResponder(api, reply, receivedAtMs, log, now).edit(errorNotice(error));
        },
      )
      .catch((error: unknown) => options.logger.error({ err: error, interactionId: reply.id }, 'could not edit a handed-over interaction after its work was lost'));
  }
}
