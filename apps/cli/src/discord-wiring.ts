import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import {
  ArtifactWatcher,
  createAttachmentDownloader,
  createDeferredRunner,
  createCachedGuildFacts,
  createDiscordApi,
  createDiscordHistory,
  createDiscordSurface,
  generateDevKeyPair,
  PLAYGROUND,
  PlaygroundChannel,
  PlaygroundGateway,
  pretendHistory,
  slashCommands,
  startDiscordEmulator,
  type AskFunction,
  type BillingPortal,
  type DeferredHandOff,
  type DeferredRunner,
  type DiscordHistory,
  type DiscordSurface,
  type EntitlementCheck,
  type InteractionDedupe,
} from '@brain/discord';
import { checkFetchable, safeFetch } from '@brain/fetch';
import type { BrainMetrics, Logger } from '@brain/observability';
import type { PlaygroundDeps } from '@brain/web';
import { exceptLocalWorkspace } from './services/entitlements.ts';
import { buildSaveRateLimits } from './services/save-limits.ts';

export interface DiscordWiring {
  surface: DiscordSurface | undefined;
  playground: PlaygroundDeps | undefined;
  /** The pretend server's history, for the worker's sync passes of its channels. */
  pretendHistory: DiscordHistory | undefined;
  /** After the web service has drained: stops the playground's Discord API emulator and its pretend server. */
  close(): Promise<void>;
}

export interface DiscordWiringInput {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  metrics?: BrainMetrics | undefined;
  /** The CLI's local workspace: the playground's server maps to it. */
  localWorkspaceId: string;
  ask: AskFunction;
  /** Billing's gate for real servers; the local workspace is always allowed. */
  checkEntitlement?: EntitlementCheck;
  /** /billing's Customer Portal; absent when Stripe is not configured. */
  openBillingPortal?: BillingPortal | undefined;
  /** Where deferred work is handed over (the answering thread's, for /ask), given how interactions are deduplicated. */
  handOff?: ((dedupe: InteractionDedupe) => DeferredHandOff | undefined) | undefined;
}

/** PGlite's data directory is locked to this one process: no other instance can see an interaction. */
export const interactionDedupe = (db: Database): InteractionDedupe => (db.kind === 'pglite' ? 'process' : 'database');

const allowed: EntitlementCheck = async () => ({ allowed: true });

/**
 * POST /interactions for real Discord (DISCORD_PUBLIC_KEY) and/or the playground (a dev key pair
 * made now, an in-process Discord API emulator, and the local workspace).
 */
export async function wireDiscord(input: DiscordWiringInput): Promise<DiscordWiring> {
  const { config, db, logger } = input;
  const playgroundParts = config.playground.enabled ? await startPlayground(input) : undefined;
  const billing = input.checkEntitlement ?? allowed;
  if (config.discord.publicKey && !input.checkEntitlement) {
    logger.warn('Discord is configured but no entitlement check is wired: /save and /ask are not gated by a plan');
  }
  // One REST client for the replies and the bot token's guild facts (without a bot token no
  // audience can be compared: each source stays in its own channel).
  const realDiscord = (publicKey: string) => {
    const api = createDiscordApi({ apiBase: config.discord.apiBase, botToken: config.discord.botToken });
    return { publicKey, api, guildFacts: config.discord.botToken ? createCachedGuildFacts({ api, logger, db }) : undefined };
  };
  const surface = createDiscordSurface({
    db,
    logger,
    dedupe: interactionDedupe(db),
    handOff: input.handOff?.(interactionDedupe(db)),
    metrics: input.metrics?.interactions,
    ask: input.ask,
    openBillingPortal: input.openBillingPortal,
    history: config.discord.botToken ? createDiscordHistory({ apiBase: config.discord.apiBase, botToken: config.discord.botToken }) : undefined,
    checkEntitlement: exceptLocalWorkspace(billing, input.localWorkspaceId),
    downloadAttachment: createAttachmentDownloader(async (url, { maxBytes, signal }) => {
      const fetched = await safeFetch(url, { allowPrivateHosts: config.allowPrivateHosts, maxBytes, signal });
      if (fetched.notModified) throw new Error('unexpected 304 for an unconditional request');
      return { bytes: fetched.body, contentType: fetched.contentType };
    }),
    checkUrl: async (url) => {
      await checkFetchable(url, { allowPrivateHosts: config.allowPrivateHosts });
    },
    saveRateLimits: buildSaveRateLimits(config, db),
    links: {
      install: () => `${config.publicUrl}/install`,
      // Claiming needs the installer's browser session (billing's /claim), so it starts from /install.
      claim: () => `${config.publicUrl}/install`,
    },
    discord: config.discord.publicKey ? realDiscord(config.discord.publicKey) : undefined,
    playground: playgroundParts
      ? {
          publicKey: playgroundParts.publicKey,
          api: createDiscordApi({ apiBase: playgroundParts.apiBase }),
          guildId: PLAYGROUND.guildId,
          workspaceId: input.localWorkspaceId,
          // The pretend server's roles and overwrites (#staff is for moderators only) and its
          // history, served by the same fake Discord REST the tests use.
          guildFacts: playgroundParts.pretend.guildFacts,
          history: playgroundParts.pretend.history,
        }
      : undefined,
  });
  return {
    surface,
    playground: playgroundParts?.deps,
    pretendHistory: playgroundParts?.pretend.history,
    close: async () => {
      await playgroundParts?.close();
    },
  };
}

async function startPlayground({ db, logger, ask, localWorkspaceId }: DiscordWiringInput) {
  const keys = generateDevKeyPair();
  const channel = new PlaygroundChannel(pretendHistory());
  // Loaded only when the playground runs: production never loads the test fakes.
  const { startPretendDiscord } = await import('./playground/pretend-discord.ts');
  const pretend = await startPretendDiscord(logger, db);
  // Read and stored now, as a sync pass does for a real guild: the local workspace's dashboard
  // offers the pretend channels before anyone asks. A failed read is logged and answers fail closed.
  await pretend.guildFacts.refresh({ guildId: PLAYGROUND.guildId, workspaceId: localWorkspaceId });
  const stopMirror = pretend.mirror(channel);
  const emulator = await startDiscordEmulator(channel, logger.child({ component: 'playground-emulator' }));
  const { startPretendBot } = await import('./playground/pretend-bot.ts');
  const bot = await startPretendBot({ db, logger, ask, localWorkspaceId, pretend });
  return {
    publicKey: keys.publicKeyHex,
    apiBase: emulator.apiBase,
    pretend,
    deps: {
      channel,
      gateway: new PlaygroundGateway(channel, keys, [...Object.values(slashCommands).map((c) => c.definition)]),
    } satisfies PlaygroundDeps,
    close: async () => {
      await bot.stop();
      stopMirror();
      await Promise.all([emulator.close(), pretend.close()]);
    },
  };
}

export interface HandedOffInteractionsInput {
  config: BrainConfig;
  /** This thread's own connection. */
  db: Database;
  logger: Logger;
  ask: AskFunction;
  /** Billing's gate, the local workspace excepted, as on the acknowledging thread. */
  checkEntitlement: EntitlementCheck;
  dedupe: InteractionDedupe;
}

/**
 * Real Discord's deferred /ask on another thread (the answering thread): the same command deps
 * wireDiscord gives the surface for the `discord` origin (the REST client, the bot token's cached
 * guild facts), over that thread's own database connection. Only /ask comes here: /save's
 * attachments and history stay with the surface on the acknowledging thread.
 */
export function wireHandedOffInteractions(input: HandedOffInteractionsInput): DeferredRunner {
  const { config, db, logger } = input;
  const api = createDiscordApi({ apiBase: config.discord.apiBase, botToken: config.discord.botToken });
  return createDeferredRunner({
    deps: {
      db,
      logger,
      ask: input.ask,
      checkEntitlement: input.checkEntitlement,
      downloadAttachment: () => Promise.reject(new Error('attachments are downloaded by the acknowledging thread, not here')),
      watcher: new ArtifactWatcher(db, logger),
      guildFacts: config.discord.botToken ? createCachedGuildFacts({ api, logger, db }) : undefined,
    },
    apis: { discord: api, playground: undefined },
    dedupe: input.dedupe,
    logger: logger.child({ component: 'interactions' }),
  });
}
