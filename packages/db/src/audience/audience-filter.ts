/**
 * What a reply, list or tool may show. Discord code builds only `keys`; `everything` is the
 * operator's view (CLI, eval, dashboard) and has to be asked for by name.
 */
export type AudienceFilter = { kind: 'everything' } | { kind: 'keys'; keys: readonly AudienceKey[] };

/** An artifact's audience: see supabase/migrations/20261201070100_add_source_audiences.sql. */
export type AudienceKey = 'workspace' | 'unknown' | `channel:${string}`;

export const EVERYTHING: AudienceFilter = { kind: 'everything' };

export function channelAudience(channelId: string): AudienceKey {
  if (!/^[0-9]{1,20}$/.test(channelId)) throw new Error(`not a Discord channel id: ${channelId}`);
  return `channel:${channelId}`;
}

export function audienceKeys(keys: Iterable<AudienceKey>): AudienceFilter {
  return { kind: 'keys', keys: [...new Set(keys)].sort() };
}

/** The SQL parameter: NULL only for the operator's view, otherwise the keys (possibly none). */
export function audienceParam(filter: AudienceFilter): string[] | null {
  return filter.kind === 'everything' ? null : [...filter.keys];
}

/** The channel id of a `channel:<id>` key, or undefined for 'workspace' / 'unknown'. */
export function audienceChannelId(key: string): string | undefined {
  return key.startsWith('channel:') ? key.slice('channel:'.length) : undefined;
}
