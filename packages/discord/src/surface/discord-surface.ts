import type { APIInteraction, APIInteractionResponse } from 'discord-api-types/v10';
import type { Database } from '@brain/db';
import type { SaveRateLimits } from '@brain/ingest';
import type { InteractionMetrics, Logger } from '@brain/observability';
import type { DeferredHandOff, InteractionDedupe } from '../interactions/deferred-work.ts';
import { createInteractionHandler } from '../interactions/handle-interaction.ts';
import { InFlightWork } from '../interactions/in-flight.ts';
import { RecentIds } from '../interactions/recent-ids.ts';
import type { AskFunction, AttachmentDownloader, BillingPortal, EntitlementCheck, InteractionOrigin, WorkspaceLinks } from '../interactions/types.ts';
import { pruneInteractionsSeen } from '../queries/prune-interactions.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import type { DiscordApi } from '../rest/discord-api.ts';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import { ArtifactWatcher } from '../save/artifact-watcher.ts';
import { createSignatureVerifier, SIGNATURE_MAX_AGE_SECONDS, type SignatureVerifier } from '../verify/verify-signature.ts';
import { createGuildWorkspaceResolver, type WorkspaceResolver } from '../workspace/resolve-workspace.ts';

export interface DiscordSurfaceOptions {
  db: Database;
  logger: Logger;
  ask: AskFunction;
  checkEntitlement: EntitlementCheck;
  downloadAttachment: AttachmentDownloader;
  checkUrl?: ((url: string) => Promise<void>) | undefined;
  saveRateLimits?: SaveRateLimits | undefined;
  openBillingPortal?: BillingPortal | undefined;
  /** Channel and thread history with the bot token (DISCORD_BOT_TOKEN); without it "Save thread to brain" says what to configure. */
  history?: DiscordHistory | undefined;
  links: WorkspaceLinks;
  /** Real Discord: its public key (DISCORD_PUBLIC_KEY) and the REST client follow-ups go through. */
  discord?: { publicKey: string; api: DiscordApi; guildFacts?: GuildFactsSource | undefined } | undefined;
  /** The playground: the dev key it signs with, its emulator, and the workspace its dev server maps to. */
  playground?:
    | { publicKey: string; api: DiscordApi; guildId: string; workspaceId: string; guildFacts?: GuildFactsSource | undefined; history?: DiscordHistory | undefined }
    | undefined;
  /** See InteractionHandlerOptions.dedupe: 'process' only where one process holds the database. */
  dedupe?: InteractionDedupe;
  /** Indexing progress poll for /save's second edit. */
  watchIntervalMs?: number;
  /** How deferred work ends (done, failed, stopped…), for GET /metrics. */
  metrics?: InteractionMetrics | undefined;
  /** Where deferred work it takes runs instead of here (InteractionHandlerOptions.handOff); drained with the rest. */
  handOff?: DeferredHandOff | undefined;
  now?: () => number;
}

/** What the web service mounts at POST /interactions. */
export interface DiscordSurface {
  verifier: SignatureVerifier<InteractionOrigin>;
  /** The playground's dev server id: the dev key is accepted for it and nothing else. */
  playgroundGuildId: string | undefined;
  handle(interaction: APIInteraction, origin: InteractionOrigin, receivedAtMs: number): Promise<APIInteractionResponse>;
  inFlight: InFlightWork;
  /**
   * Drains in-flight work (SIGTERM) and stops the pruning timer. Work still running after
   * `graceMs` is told to stop and edits its reply with a "restarted, ask again" notice. The
   * caller passes its shutdown grace (BRAIN_SHUTDOWN_GRACE_SECONDS): there is no default here,
   * so no second deadline can drift from the one the platform enforces.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Everything behind POST /interactions, built once by the composition root: verification keys,
 * workspace resolution, the command handlers and their follow-up channel per origin, the
 * in-flight tracker, and a timer that prunes interaction ids past the replay window.
 */
export function createDiscordSurface(options: DiscordSurfaceOptions): DiscordSurface | undefined {
  const keys: Partial<Record<InteractionOrigin, string>> = {};
  if (options.discord) keys.discord = options.discord.publicKey;
  if (options.playground) keys.playground = options.playground.publicKey;
  if (!keys.discord && !keys.playground) return undefined;

  const inFlight = new InFlightWork(options.logger);
  const playgroundWorkspace = options.playground?.workspaceId;
  const playgroundResolver: WorkspaceResolver | undefined = playgroundWorkspace
    ? { resolve: async () => ({ kind: 'ready', workspaceId: playgroundWorkspace }), forget: () => {} }
    : undefined;

  const handle = createInteractionHandler({
    deps: {
      db: options.db,
      logger: options.logger,
      ask: options.ask,
      checkEntitlement: options.checkEntitlement,
      downloadAttachment: options.downloadAttachment,
      checkUrl: options.checkUrl,
      saveRateLimits: options.saveRateLimits,
      openBillingPortal: options.openBillingPortal,
      watcher: new ArtifactWatcher(options.db, options.logger, options.watchIntervalMs),
      guildFacts: guildFactsByOrigin(options),
      history: options.history,
    },
    // The pretend server's threads and channels are read from its own fake Discord, never with the bot token.
    histories: { discord: options.history, playground: options.playground?.history },
    workspaces: { discord: options.discord ? createGuildWorkspaceResolver(options.db) : undefined, playground: playgroundResolver },
    apis: { discord: options.discord?.api, playground: options.playground?.api },
    links: options.links,
    inFlight,
    recentIds: new RecentIds(),
    dedupe: options.dedupe ?? 'database',
    logger: options.logger.child({ component: 'interactions' }),
    metrics: options.metrics,
    handOff: options.handOff,
    ...(options.now ? { now: options.now } : {}),
  });

  const pruneEveryMs = 10 * 60_000;
  const prune = setInterval(() => {
    pruneInteractionsSeen(options.db, 2 * SIGNATURE_MAX_AGE_SECONDS * 1000).catch((error: unknown) =>
      options.logger.warn({ err: error }, 'pruning interactions_seen failed'),
    );
  }, pruneEveryMs);
  prune.unref();

  return {
    verifier: createSignatureVerifier(keys as Record<InteractionOrigin, string>),
    playgroundGuildId: options.playground?.guildId,
    handle,
    inFlight,
    async close(graceMs) {
      clearInterval(prune);
      await Promise.all([inFlight.drain(graceMs), options.handOff?.drain(graceMs)]);
    },
  };
}

/** The playground's pretend server has its own facts; every other guild is read with the bot token. */
function guildFactsByOrigin(options: DiscordSurfaceOptions): GuildFactsSource | undefined {
  const real = options.discord?.guildFacts;
  const playground = options.playground;
  if (!real && !playground?.guildFacts) return undefined;
  return {
    facts: async (scope, channelIds) =>
      playground && scope.guildId === playground.guildId ? playground.guildFacts?.facts(scope, channelIds) : real?.facts(scope, channelIds),
  };
}
