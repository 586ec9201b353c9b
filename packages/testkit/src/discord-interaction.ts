/** A member of a guild with Send Messages only: what an ordinary user's interaction carries. */
const MEMBER_PERMISSIONS = '2048';
/** Discord's epoch (2015-01-01), from which snowflakes count milliseconds. */
const DISCORD_EPOCH_MS = 1_420_070_400_000;

export interface GuildSlashCommandInput {
  applicationId: string;
  guildId: string;
  name: string;
  /** String options, as `/ask question: …` sends them. */
  options?: { name: string; value: string }[];
  /** Makes the id and the token unique within this process. */
  sequence: number;
  /** Prefix of the interaction token, to tell the callers' follow-ups apart. */
  tokenPrefix: string;
}

/** A guild slash command (type 2) as Discord delivers it to the interactions endpoint, unsigned. */
export function guildSlashCommand(input: GuildSlashCommandInput): { id: string; token: string } & Record<string, unknown> {
  return {
    id: String((BigInt(Date.now() - DISCORD_EPOCH_MS) << 22n) + BigInt(input.sequence)),
    application_id: input.applicationId,
    token: `${input.tokenPrefix}${process.pid}x${input.sequence}`,
    version: 1,
    type: 2,
    guild_id: input.guildId,
    channel_id: '910000000000000003',
    member: {
      user: { id: '910000000000000004', username: 'ada', discriminator: '0', avatar: null },
      permissions: MEMBER_PERMISSIONS,
      roles: [],
      joined_at: '2026-01-01T00:00:00Z',
      deaf: false,
      mute: false,
      flags: 0,
    },
    data: { id: '910000000000000005', name: input.name, type: 1, options: (input.options ?? []).map((o) => ({ ...o, type: 3 })) },
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': input.guildId },
  };
}
