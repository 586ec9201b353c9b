/**
 * What a reply, list or tool may show. Discord code builds only `keys`; `everything` is the
 * operator's view (CLI, eval, dashboard) and has to be asked for by name.
 */
export type AudienceFilter =
  | { kind: 'everything' }
  | {
      kind: 'keys';
      keys: readonly AudienceKey[];
      /**
       * Set only when `keys` are exactly what every member of the server may read, judged from
       * guild facts the stored flags follow: search then filters on chunks.readable_by_everyone,
       * whose partial HNSW index applies the filter before the scan. Lists keep using `keys`.
       */
      everyone?: true;
    };

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

/** match_artifacts' parameter: its reserved key 'everyone' for a marked filter, else audienceParam's. */
export function searchAudienceParam(filter: AudienceFilter): string[] | null {
  return filter.kind === 'keys' && filter.everyone ? ['everyone'] : audienceParam(filter);
}

/** The channel id of a `channel:<id>` key, or undefined for 'workspace' / 'unknown'. */
export function audienceChannelId(key: string): string | undefined {
  return key.startsWith('channel:') ? key.slice('channel:'.length) : undefined;
}
