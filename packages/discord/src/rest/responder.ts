import { setTimeout as sleep } from 'node:timers/promises';
import { DiscordAPIError, RateLimitError } from '@discordjs/rest';
import { MessageFlags } from 'discord-api-types/v10';
import type { Logger } from '@brain/observability';
import type { DiscordApi } from './discord-api.ts';
import { wireBody, type OutgoingMessage } from './outgoing-message.ts';

/** Discord keeps an interaction token for 15 minutes. */
export const TOKEN_LIFETIME_MS = 15 * 60_000;
/** We stop a minute early: an edit that would land after the token dies is never attempted. */
export const EDIT_WINDOW_MS = 14 * 60_000;
const MAX_RATE_LIMIT_RETRIES = 5;
/** Waits before re-sending after a lost connection: about 4 s in all, well inside the token window. */
const CONNECTION_RETRY_DELAYS_MS = [100, 300, 1_000, 2_500];
// The request never got an answer because the connection failed under it. @discordjs/rest
// retries ECONNRESET and its own timeouts, not these: "other side closed" is what a client whose
// event loop lags gets when it reuses a keep-alive connection the server has just closed.
const CONNECTION_LOST_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
// Discord answers these once a token is dead or the message is gone; retrying only earns 401s
// towards the invalid-request limit (10,000 per 10 minutes per IP).
const GIVE_UP_CODES = new Set([10015, 10008, 10062, 50027]);

export interface ResponderOptions {
  api: DiscordApi;
  applicationId: string;
  token: string;
  interactionId: string;
  /** When the interaction arrived (ms since the epoch): the token window starts here. */
  receivedAtMs: number;
  logger: Logger;
  now?: () => number;
}

export type Delivery = 'sent' | 'window-closed' | 'failed';

/**
 * Edits and follow-ups for one interaction, through its token: every body carries
 * `allowed_mentions: { parse: [] }`, 429s are retried after Discord's retry_after while the
 * token window allows, and nothing is sent once the window has closed.
 */
export class InteractionResponder {
  readonly deadlineMs: number;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(private readonly options: ResponderOptions) {
    this.now = options.now ?? Date.now;
    this.deadlineMs = options.receivedAtMs + EDIT_WINDOW_MS;
    this.log = options.logger.child({ interactionId: options.interactionId });
  }

  windowOpen(): boolean {
    return this.now() < this.deadlineMs;
  }

  msLeft(): number {
    return Math.max(0, this.deadlineMs - this.now());
  }

  /** Replaces the deferred "thinking…" message (or, for a button, the message it is on). */
  edit(message: OutgoingMessage, signal?: AbortSignal): Promise<Delivery> {
    const { api, applicationId, token } = this.options;
    return this.deliver('edit', message, (body) => api.editOriginal(applicationId, token, body, signal), signal);
  }

  /** A further message under the same interaction: the rest of a long answer, or an ephemeral note. */
  followUp(message: OutgoingMessage, options: { ephemeral?: boolean } = {}, signal?: AbortSignal): Promise<Delivery> {
    const { api, applicationId, token } = this.options;
    const extra = options.ephemeral ? MessageFlags.Ephemeral : 0;
    return this.deliver('follow-up', message, (body) => api.createFollowUp(applicationId, token, body, signal), signal, extra);
  }

  private async deliver(
    kind: 'edit' | 'follow-up',
    message: OutgoingMessage,
    send: (body: unknown) => Promise<unknown>,
    signal: AbortSignal | undefined,
    extraFlags = 0,
  ): Promise<Delivery> {
    let body = wireBody(message, extraFlags);
    let fellBack = false;
    let connectionRetries = 0;
    for (let attempt = 0; ; attempt++) {
      if (!this.windowOpen()) {
        this.log.warn({ kind }, 'interaction token window closed: not sending');
        return 'window-closed';
      }
      try {
        await send(body);
        return 'sent';
      } catch (error) {
        if (error instanceof RateLimitError && attempt < MAX_RATE_LIMIT_RETRIES) {
          const waitMs = Math.max(error.retryAfter, 50);
          if (this.now() + waitMs >= this.deadlineMs) {
            this.log.warn({ kind, retryAfterMs: waitMs }, 'rate limited past the token window: giving up');
            return 'window-closed';
          }
          this.log.warn({ kind, retryAfterMs: waitMs, attempt }, 'rate limited by Discord: retrying after retry_after');
          try {
            await sleep(waitMs, undefined, signal ? { signal } : {});
          } catch {
            return 'failed';
          }
          continue;
        }
        if (error instanceof DiscordAPIError && typeof error.code === 'number' && GIVE_UP_CODES.has(error.code)) {
          this.log.warn({ kind, code: error.code, status: error.status }, 'Discord no longer accepts this interaction token');
          return 'failed';
        }
        if (error instanceof DiscordAPIError && error.status === 400 && !fellBack) {
          // Discord refused the body (a limit we got wrong, an unexpected field): say so rather than
          // leave "thinking…" on screen forever.
          this.log.error({ kind, code: error.code, err: error }, 'Discord refused a message body: sending a plain notice instead');
          fellBack = true;
          body = wireBody(
            { content: "⚠️ I couldn't display this reply: Discord refused it. Please try again; if it keeps happening, tell the server operator.", embeds: [], components: [], flags: MessageFlags.SuppressEmbeds },
            extraFlags,
          );
          continue;
        }
        if (connectionLost(error, kind) && !signal?.aborted && connectionRetries < CONNECTION_RETRY_DELAYS_MS.length) {
          const waitMs = CONNECTION_RETRY_DELAYS_MS[connectionRetries++] as number;
          this.log.warn({ kind, err: error, retryInMs: waitMs }, 'connection to Discord lost before an answer: sending again');
          try {
            await sleep(waitMs, undefined, signal ? { signal } : {});
          } catch {
            return 'failed';
          }
          continue;
        }
        this.log.error({ kind, err: error }, 'could not deliver a message to Discord');
        return 'failed';
      }
    }
  }
}

/**
 * Whether the request failed for want of a connection rather than by Discord's answer. An edit of
 * @original replaces the message, so sending it twice is harmless, even after a timeout that
 * Discord may have acted on; a follow-up creates a message, so it is sent again only when the
 * connection failed (a timeout could mean it was posted).
 */
function connectionLost(error: unknown, kind: 'edit' | 'follow-up'): boolean {
  if (!(error instanceof Error) || error instanceof DiscordAPIError || error instanceof RateLimitError) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return kind === 'edit';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && CONNECTION_LOST_CODES.has(code);
}
