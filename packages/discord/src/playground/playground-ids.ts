/** The playground's pretend server, channel, user and application (snowflake-shaped, never real). */
export const PLAYGROUND = {
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  userId: '100000000000000003',
  applicationId: '100000000000000004',
  username: 'you',
  guildName: 'Playground',
  channelName: 'general',
} as const;
