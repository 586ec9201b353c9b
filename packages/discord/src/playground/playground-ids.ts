/** The playground's pretend server, channel, user and application (snowflake-shaped, never real). */
export const PLAYGROUND = {
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  userId: '100000000000000003',
  applicationId: '100000000000000004',
  username: 'you',
  guildName: 'Playground',
  channelName: 'general',
  /** A staff-only channel: @everyone cannot view it, the Moderator role can. */
  staffChannelId: '100000000000000005',
  staffChannelName: 'staff',
  moderatorRoleId: '100000000000000006',
  /** Someone else owns the pretend server, so "you" are judged by roles like any member. */
  ownerId: '100000000000000007',
} as const;
