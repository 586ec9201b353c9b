import type { AudienceKey, Queryable } from '@brain/db';

/** The channel audiences this workspace has live sources in: the few keys an ask has to judge. */
export async function audienceKeysWithSources(tx: Queryable): Promise<AudienceKey[]> {
  const rows = await tx.query<{ audience: AudienceKey }>(
    "select distinct audience from artifacts where forgotten_at is null and audience like 'channel:%'",
  );
  return rows.map((r) => r.audience);
}
