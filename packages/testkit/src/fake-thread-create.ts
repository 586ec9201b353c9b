/** A THREAD_CREATE dispatch's data for a new public thread or forum post, as the Gateway sends it. */
export function fakeThreadCreate(input: { id: string; guildId: string; parentId: string; ownerId: string; name: string }): Record<string, unknown> {
  return {
    id: input.id,
    guild_id: input.guildId,
    parent_id: input.parentId,
    owner_id: input.ownerId,
    // PUBLIC_THREAD: a forum post is one too.
    type: 11,
    name: input.name,
    newly_created: true,
    last_message_id: input.id,
    message_count: 0,
    member_count: 1,
    rate_limit_per_user: 0,
    flags: 0,
    applied_tags: [],
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
  };
}
