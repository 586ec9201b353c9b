export { startFakeHttpServer, type FakeHandler, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';
export { startFakeDiscord, type DiscordWebhookCall, type FakeDiscord } from './fake-discord.ts';
export {
  startFakeOpenAI,
  type ChatRequestBody,
  type ChatResponder,
  type ChatResponse,
  type EmbeddingCall,
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type ScriptedFailure,
} from './fake-openai.ts';
export { assemblePdf, bombPdf, encryptedPdf, textPdf, textlessPdf, type TextPdfOptions } from './pdf-fixtures.ts';
export { CJK_FONTS, cjkPdf, encryptedAttachmentPdf, filledFormPdf, type CjkFont, type FilledFormOptions } from './pdf-fidelity-fixtures.ts';
export { startFakeDiscordOAuth, type FakeDiscordOAuth, type FakeGuild } from './fake-discord-oauth.ts';
export { startFakeStripe, type FakeStripe, type FakeStripeEvent, type SignedDelivery } from './fake-stripe.ts';
export { startFakeSupabaseAuth, type FakeSupabaseAuth, type FakeSupabaseEmail } from './fake-supabase-auth.ts';
export { parseStripeForm } from './stripe-form.ts';
export { closedLoopbackUrl } from './closed-port.ts';
export { freeLoopbackPort, reserveLoopbackPort, type ReservedPort } from './reserved-port.ts';
export { expectNoMoreCalls, waitUntil, type CallLog, type WaitOptions } from './wait.ts';
export {
  autocompleteRequest,
  buttonPress,
  DEFAULT_INTERACTION_USER,
  discordInteraction,
  guildSlashCommand,
  MEMBER_PERMISSIONS,
  messageMenuCommand,
  pingInteraction,
  slashCommand,
  type GuildSlashCommandInput,
  type InteractionContext,
  type InteractionEnvelope,
  type InteractionOption,
} from './discord-interaction.ts';
export { fakeThreadCreate } from './fake-thread-create.ts';
export { fakeMessage, snowflakeAt, snowflakeTime, type FakeMessage } from './fake-discord-message.ts';
export { startFakeDiscordHistory, type FakeChannelState, type FakeDiscordHistory } from './fake-discord-history.ts';
export { createFakeRateLimits, DISCORD_GLOBAL_PER_SECOND, type FakeRateLimits, type RateLimitCounts } from './fake-discord-rate-limits.ts';
export { forumPostFixture, THREAD_FACTS, type ForumPostFixture } from './thread-fixtures.ts';
export { startFakeDiscordGuilds, type FakeDiscordGuilds, type FakeGuildChannel, type FakeGuildRole, type FakeGuildState } from './fake-discord-guild.ts';
export {
  startFakeDiscordGateway,
  GatewayClose,
  GatewayOp,
  PRIVILEGED_INTENTS,
  type FakeDiscordGateway,
  type FakeDiscordGatewayOptions,
  type GatewayIdentify,
  type GatewayResume,
} from './fake-discord-gateway.ts';
export { startFakeDiscordBotMessages, type BotPost, type BotReaction, type FakeDiscordBotMessages } from './fake-discord-bot-messages.ts';
