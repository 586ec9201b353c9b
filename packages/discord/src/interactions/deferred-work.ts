import type { APIInteraction } from 'discord-api-types/v10';
import { lazyChild, type Logger } from '@brain/observability';
import type { DiscordHistory } from '../history/discord-history.ts';
import { claimInteraction } from '../queries/claim-interaction.ts';
import type { DiscordApi } from '../rest/discord-api.ts';
import { InteractionResponder } from '../rest/responder.ts';
import { errorNotice, notice } from '../render/notice.ts';
import type { WorkSignals } from './in-flight.ts';
import { actingUser } from './options.ts';
import { routeInteraction, type Routed } from './route-interaction.ts';
import type { CommandDeps, InteractionOrigin, RunContext } from './types.ts';

/**
 * An acknowledged interaction whose work is still to do, as plain data: it can cross to another
 * thread (structured clone), where a runner of its own does the work and edits the reply.
 */
export interface DeferredWork {
  label: string;
  interaction: APIInteraction;
  origin: InteractionOrigin;
  workspaceId: string;
  /** When the interaction arrived (ms since the epoch): its token window starts here. */
  receivedAtMs: number;
}

/** How the work after a deferred acknowledgement ended (InteractionMetrics' outcomes). */
export type DeferredOutcome = 'done' | 'failed' | 'stopped' | 'duplicate' | 'not_entitled' | 'no_api';

/**
 * Where deferred work may be handed over instead of running on the thread that acknowledged it
 * (`brain start`: /ask on its answering thread). `take` returns undefined when it does not take
 * this work (it then runs here); otherwise the outcome, or a rejection when the work was lost
 * before it finished (the other thread stopped): the reply is then edited here with that error,
 * so a handed-over interaction still ends in an edited message. `drain` is the shutdown's.
 */
export interface DeferredHandOff {
  take(work: DeferredWork): Promise<DeferredOutcome> | undefined;
  drain(graceMs: number): Promise<void>;
}

/**
 * How a second delivery of an interaction is caught. 'database': interactions_seen decides across
 * instances. 'process': the in-memory set alone, for the embedded database, which one process
 * holds exclusively.
 */
export type InteractionDedupe = 'database' | 'process';

export interface DeferredRunnerOptions {
  deps: CommandDeps;
  /** History per origin, when they differ (see InteractionHandlerOptions.histories). */
  histories?: Record<InteractionOrigin, DiscordHistory | undefined>;
  /** Where edits and follow-ups go, per origin. */
  apis: Record<InteractionOrigin, DiscordApi | undefined>;
  /** See InteractionHandlerOptions.dedupe. */
  dedupe?: InteractionDedupe;
  logger: Logger;
  now?: () => number;
}

export type DeferredRunner = (work: DeferredWork, signals: WorkSignals, log?: Logger) => Promise<DeferredOutcome>;

/** The interaction's own logger, built at its first line (lazyChild says why). */
export function interactionLogger(logger: Logger, interaction: Pick<APIInteraction, 'id' | 'guild_id'>, origin: InteractionOrigin, label: string | undefined): Logger {
  return lazyChild(logger, { interactionId: interaction.id, origin, guildId: interaction.guild_id, command: label });
}

/**
 * The work after a deferred acknowledgement: claim, entitlement, the command's `run`, and the
 * edit with the error when it fails. Every deferred interaction ends in an edit: the result, or
 * the error and what to do about it.
 */
export function createDeferredRunner(options: DeferredRunnerOptions): DeferredRunner {
  const now = options.now ?? Date.now;
  const depsByOrigin = (origin: InteractionOrigin): CommandDeps => (options.histories ? { ...options.deps, history: options.histories[origin] } : options.deps);

  return async function run(work, signals, given) {
    const { interaction, origin, workspaceId, receivedAtMs } = work;
    const log = given ?? interactionLogger(options.logger, interaction, origin, work.label);
    const routed = routeInteraction(interaction);
    const api = options.apis[origin];
    if (!api) {
      log.error('no Discord API configured for this origin: the deferred reply cannot be edited');
      return 'no_api';
    }
    const responder = deferredResponder(api, interaction, receivedAtMs, log, now);
    if (!routed || routed.kind === 'autocomplete' || !routed.handler.run) {
      log.error('deferred work for an interaction that has none: editing the reply with the error');
      await responder.edit(errorNotice(new Error(`no deferred work for ${work.label}`)));
      return 'failed';
    }
    return runRouted(routed, workspaceId, origin, depsByOrigin(origin), responder, signals, log);
  };

  async function runRouted(
    routed: Exclude<Routed, { kind: 'autocomplete' }>,
    workspaceId: string,
    origin: InteractionOrigin,
    deps: CommandDeps,
    responder: InteractionResponder,
    signals: WorkSignals,
    log: Logger,
  ): Promise<DeferredOutcome> {
    const { interaction } = routed;
    const started = performance.now();
    try {
      if (options.dedupe !== 'process' && !(await claimInteraction(deps.db, interaction.id))) {
        log.info('interaction already handled by another delivery: skipping');
        return 'duplicate';
      }
      if (routed.handler.entitlement) {
        const entitled = await deps.checkEntitlement(workspaceId, routed.handler.entitlement);
        if (!entitled.allowed) {
          await responder.edit(notice(entitled.message));
          return 'not_entitled';
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
      return 'done';
    } catch (error) {
      const stopped = signals.stop.aborted;
      log.warn({ err: error, stopped, ms: Math.round(performance.now() - started) }, 'interaction failed: editing the reply with the error');
      await responder.edit(stopped ? notice('⚠️ I was restarted before I could finish. Please try again.') : errorNotice(error));
      return stopped ? 'stopped' : 'failed';
    }
  }
}

/** Edits and follow-ups through the interaction's token. */
export function deferredResponder(api: DiscordApi, interaction: Pick<APIInteraction, 'id' | 'application_id' | 'token'>, receivedAtMs: number, logger: Logger, now: () => number = Date.now): InteractionResponder {
  return new InteractionResponder({ api, applicationId: interaction.application_id, token: interaction.token, interactionId: interaction.id, receivedAtMs, logger, now });
}
