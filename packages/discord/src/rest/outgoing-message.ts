import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord-api-types/v10';

/**
 * A message as this bot sends it. Every field is explicit on every edit, so an edit never leaves
 * part of an earlier state behind (a "thinking…" line, old buttons, a stale flag).
 */
export interface OutgoingMessage {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  /** 0, or SUPPRESS_EMBEDS for content-only messages (the one flag an edit may change). */
  flags: number;
  /**
   * The one exception to "never ping": "Still need help?" pings the channel's configured staff
   * role, and only that role (`allowed_mentions: { roles: [id] }`, never `parse`).
   */
  pingRoles?: readonly string[];
}

/** No @everyone, no role, no user ping, ever: saved content and answers are replayed data. */
export const NO_MENTIONS = { parse: [] as never[] };

/** The JSON body Discord receives for an edit or a follow-up. */
export function wireBody(message: OutgoingMessage, extraFlags = 0) {
  return {
    content: message.content,
    embeds: message.embeds,
    components: message.components,
    flags: message.flags | extraFlags,
    allowed_mentions: message.pingRoles && message.pingRoles.length > 0 ? { roles: [...message.pingRoles] } : NO_MENTIONS,
  };
}
