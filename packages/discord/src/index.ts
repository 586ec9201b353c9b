import type {} from './error-codes.ts';
export { createSignatureVerifier, ed25519PublicKey, SIGNATURE_MAX_AGE_SECONDS, type SignatureCheck, type SignatureVerifier } from './verify/verify-signature.ts';
export { generateDevKeyPair, devKeyPairFromPem, type DevKeyPair } from './verify/dev-key-pair.ts';

export { parseInteraction } from './interactions/parse-interaction.ts';
export { createInteractionHandler, type InteractionHandler, type InteractionHandlerOptions } from './interactions/handle-interaction.ts';
export { FINAL_EDIT_MS, InFlightWork, type WorkSignals } from './interactions/in-flight.ts';
export {
  createDeferredRunner,
  type DeferredHandOff,
  type DeferredOutcome,
  type DeferredRunner,
  type DeferredRunnerOptions,
  type DeferredWork,
  type InteractionDedupe,
} from './interactions/deferred-work.ts';
export { RecentIds } from './interactions/recent-ids.ts';
export { isServerAdmin, ADMIN_PERMISSIONS } from './interactions/permissions.ts';
export type {
  Ack,
  AnswerCitation,
  AskFunction,
  AskOutcome,
  AttachmentDownloader,
  BillingPortal,
  CommandDeps,
  EntitlementCheck,
  InteractionOrigin,
  WorkspaceLinks,
} from './interactions/types.ts';

export { commandDefinitions, slashCommands, messageCommands, buttonHandlers } from './commands/index.ts';
export { SAVE_MESSAGE_COMMAND, jumpUrl } from './commands/save-message.ts';
export { SAVE_THREAD_COMMAND } from './commands/save-thread.ts';
export { createDiscordHistory, MESSAGES_PER_PAGE, type DiscordHistory, type DiscordHistoryOptions } from './history/discord-history.ts';
export { threadMessages } from './history/thread-messages.ts';
export { syncChannel, SYNC_CONCURRENCY, type SyncOutcome, type SyncPass } from './sync/sync-channel.ts';
export { createSyncRunner } from './sync/sync-runner.ts';
export { addSyncedChannel, queueSync, type AddSyncedChannel } from './sync/add-synced-channel.ts';
export { removeSyncedChannel } from './sync/remove-synced-channel.ts';
export { dayOfMessage, queueDaySync, DAY_SYNC_DELAY_MS } from './sync/queue-day-sync.ts';
export { listSyncedChannels } from './sync/list-synced-channels.ts';
export { syncKindOf, syncProgress, type SyncedChannel, type SyncCheckpoint } from './sync/synced-channel.ts';
export { syncedChannelLine, syncedChannelsText } from './render/synced-channels.ts';

export { createDiscordApi, DEFAULT_DISCORD_API_BASE, type DiscordApi, type DiscordApiOptions } from './rest/discord-api.ts';
export { InteractionResponder, EDIT_WINDOW_MS, TOKEN_LIFETIME_MS, type Delivery } from './rest/responder.ts';
export { NO_MENTIONS, type OutgoingMessage } from './rest/outgoing-message.ts';

export { renderAnswer, packEmbeds } from './render/answer-message.ts';
export { DISCORD_LIMITS, embedCharacters, limitViolations } from './render/limits.ts';
export { splitOnParagraphs } from './render/split-paragraphs.ts';

export { createGuildWorkspaceResolver, type WorkspaceResolution, type WorkspaceResolver } from './workspace/resolve-workspace.ts';
export { ArtifactWatcher } from './save/artifact-watcher.ts';
export { pruneInteractionsSeen } from './queries/prune-interactions.ts';
export { changeAudience, type AudienceChange } from './queries/change-audience.ts';
export { audienceKeysWithSources } from './queries/audience-keys-with-sources.ts';
export { guildChannels, type GuildChannel } from './queries/guild-channels.ts';
export { createDiscordSurface, type DiscordSurface, type DiscordSurfaceOptions } from './surface/discord-surface.ts';
export * from './playground/index.ts';
export { createAttachmentDownloader, DISCORD_CDN_HOSTS, type FetchBytes } from './save/download-attachment.ts';

export { createCachedGuildFacts, GUILD_FACTS_TTL_MS, type CachedGuildFactsOptions } from './rest/cached-guild-facts.ts';
export type { GuildFactsSource, GuildScope, RefreshableGuildFacts } from './audience/guild-facts-source.ts';
export { parseGuildFacts, type GuildFacts, type ChannelFacts, type MemberFacts, type InvokingChannel, type RawChannel, type RawRole } from './audience/guild-facts.ts';
export { channelAskAudience, privateAskAudience } from './audience/allowed-audiences.ts';
export { resolveAskAudience, type AskAudience, type AskAudienceRequest } from './audience/resolve-ask-audience.ts';
export { createTokenAudience } from './audience/token-audience.ts';

export { startGatewayRunner, type GatewayRunner, type GatewayRunnerOptions } from './gateway/gateway-runner.ts';
export { acquireGatewayLease, releaseGatewayLease, GATEWAY_LEASE } from './gateway/gateway-lease.ts';
export { createGatewayClient, GATEWAY_INTENTS, threadMessageOf } from './gateway/gateway-client.ts';
export { answerNewThread, type AutoAnswerDeps, type AutoAnswerResult } from './autoanswer/answer-new-thread.ts';
export { enableAutoanswer, type EnableAutoanswer } from './autoanswer/enable-autoanswer.ts';
export { disableAutoanswer } from './autoanswer/disable-autoanswer.ts';
export { listAutoanswerChannels } from './autoanswer/list-autoanswer-channels.ts';
export { anyAutoanswerChannel } from './autoanswer/any-autoanswer-channel.ts';
export type { AutoanswerChannel, WhenUncovered } from './autoanswer/autoanswer-channel.ts';
export type { ThreadMessage } from './autoanswer/thread-message.ts';
export { createThreadWriter, type ThreadWriter } from './autoanswer/thread-writer.ts';
export { FAILED_LINE, NOT_ENTITLED_LINE, RATE_LIMITED_LINE, UNCOVERED_LINE, UNCOVERED_REACTION } from './autoanswer/messages.ts';
export { AUTO_VOTE_PREFIX, STILL_NEED_HELP_PREFIX } from './autoanswer/auto-answer-buttons.ts';
export { isThreadSilenced } from './autoanswer/silence-thread.ts';
export {
  AUTO_ANSWER_STATES,
  loadAutoAnswerOutcomes,
  type AutoAnswerOutcomes,
  type AutoAnswerState,
  type ChannelOutcomes,
  type RecentAutoAnswer,
} from './autoanswer/load-auto-answer-outcomes.ts';
export type { AutoAnswerOutcome } from './autoanswer/finish-auto-answer.ts';
export { answerFollowUp, addressesBot, type FollowUpDeps, type FollowUpResult } from './followup/answer-follow-up.ts';
export { MARK_SOLVED_COMMAND, markSolvedCommand } from './commands/mark-solved.ts';
export { markSolvedAndSave, type SolvedMark } from './solved/mark-solved.ts';
export { refreshThreadSource, type RefreshResult, type RefreshThread } from './solved/refresh-thread-source.ts';
export { SOLVED_EMOJI } from './solved/on-solved-signal.ts';
