import type {
  APIApplicationCommandOptionChoice,
  APIApplicationCommandAutocompleteInteraction,
  APIChatInputApplicationCommandInteraction,
  APIMessageApplicationCommandInteraction,
  APIMessageComponentButtonInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import type { ErrorCode } from '@brain/errors';
import type { AudienceFilter, Database } from '@brain/db';
import type { SaveRateLimits } from '@brain/ingest';
import type { Logger } from '@brain/observability';
import type { InteractionResponder } from '../rest/responder.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import type { ArtifactWatcher } from '../save/artifact-watcher.ts';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import type { WorkSignals } from './in-flight.ts';

/** Where an interaction came from: Discord itself, or the local playground (signed with the dev key). */
export type InteractionOrigin = 'discord' | 'playground';

/** One cited source of an answer, as @brain/answer returns it. */
export interface AnswerCitation {
  n: number;
  artifactId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  heading: string | null;
  similarity: number | null;
}

/** What `ask` from @brain/answer returns (the fields this surface renders). */
export interface AskOutcome {
  answer: string;
  grounded: boolean;
  citations: AnswerCitation[];
  queryId: string;
  trimmed: boolean;
  answerer: 'llm' | 'extractive' | 'none';
  model: string | null;
  /** A public reply found nothing good enough and the asker's own permissions would: say so, and nothing more. */
  privateAnswerAvailable?: boolean | undefined;
}

export type AskFunction = (input: {
  workspaceId: string;
  question: string;
  audience: AudienceFilter;
  surface: 'discord' | 'playground' | 'auto' | 'follow_up';
  askedBy: string;
  interactionId: string;
  signal: AbortSignal;
  /** The asker's own audience, asked for only when the channel's finds nothing good enough. */
  privateAudience?: () => Promise<AudienceFilter>;
}) => Promise<AskOutcome>;

/** Opens a Customer Portal session, or throws an AppError saying why not (no subscription yet: the checkout link). */
export type BillingPortal = (workspaceId: string) => Promise<{ url: string }>;

/** Billing's gate on /save and /ask: allowed, or a message for the user (with the checkout link). */
export type EntitlementCheck = (workspaceId: string, action: 'save' | 'ask') => Promise<{ allowed: true } | { allowed: false; message: string; code?: ErrorCode | undefined }>;

/** Downloads a `/save file:` attachment from Discord's CDN (through the SSRF-safe fetcher). */
export type AttachmentDownloader = (url: string, options: { maxBytes: number; signal: AbortSignal }) => Promise<{ bytes: Buffer; contentType: string | undefined }>;

/** Links the bot hands out when a server is not ready for it. */
export interface WorkspaceLinks {
  install(guildId: string): string;
  claim(guildId: string): string;
}

export interface CommandDeps {
  db: Database;
  logger: Logger;
  ask: AskFunction;
  checkEntitlement: EntitlementCheck;
  downloadAttachment: AttachmentDownloader;
  /** Refuses a URL the fetcher would refuse, before anything is saved (@brain/fetch checkFetchable). */
  checkUrl?: ((url: string) => Promise<void>) | undefined;
  /** Per-member and per-workspace save limits, enforced by saveSource. */
  saveRateLimits?: SaveRateLimits | undefined;
  /** A Stripe Customer Portal session for the workspace (@brain/billing); absent when billing is off. */
  openBillingPortal?: BillingPortal | undefined;
  watcher: ArtifactWatcher;
  /** The guild's roles and overwrites (the bot token's REST reads); absent without a bot token: audiences fail closed. */
  guildFacts?: GuildFactsSource | undefined;
  /** Reads channel and thread history with the bot token; absent without DISCORD_BOT_TOKEN. */
  history?: DiscordHistory | undefined;
}

/** How an interaction is acknowledged inside Discord's 3 seconds, decided without any I/O. */
export type Ack =
  | { kind: 'defer'; ephemeral: boolean }
  /** Components only: no loading state; the work then edits the message the button is on. */
  | { kind: 'defer-update' }
  | { kind: 'reply'; message: OutgoingMessage; ephemeral: boolean };

export interface RunContext<I> {
  interaction: I;
  workspaceId: string;
  origin: InteractionOrigin;
  user: { id: string; name: string };
  responder: InteractionResponder;
  deps: CommandDeps;
  /** Aborts when the token window closes or the drain grace period ends. */
  signal: AbortSignal;
  signals: WorkSignals;
  log: Logger;
}

interface Handler<I> {
  /** Admin-only: also enforced here, whatever the server's command permission overrides say. */
  adminOnly?: boolean;
  /** The billing gate this runs behind. */
  entitlement?: 'save' | 'ask';
  /** `deps` only to see what is configured (a bot token…): no I/O here. */
  acknowledge(interaction: I, deps: CommandDeps): Ack;
  run?(ctx: RunContext<I>): Promise<void>;
}

export interface SlashCommand extends Handler<APIChatInputApplicationCommandInteraction> {
  kind: 'slash';
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  autocomplete?(ctx: { interaction: APIApplicationCommandAutocompleteInteraction; workspaceId: string; deps: CommandDeps }): Promise<APIApplicationCommandOptionChoice[]>;
}

export interface MessageCommand extends Handler<APIMessageApplicationCommandInteraction> {
  kind: 'message';
  definition: RESTPostAPIContextMenuApplicationCommandsJSONBody;
}

/** Buttons, routed by the prefix of their custom_id (`prefix:rest`). */
export interface ButtonHandler extends Handler<APIMessageComponentButtonInteraction> {
  prefix: string;
}
