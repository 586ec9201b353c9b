// The interaction the benchmark sends: a guild /ask, as Discord would deliver it.
const QUESTIONS = ['How do we deploy?', 'When are keys rotated?', 'Who reviews pull requests?', 'Where is the on-call runbook?', 'What is the refund policy?'];

export const BENCH_APPLICATION_ID = '700000000000000001';

export function askInteraction(guildId: string, i: number): object {
  const id = String((BigInt(Date.now() - 1_420_070_400_000) << 22n) + BigInt(i));
  return {
    id,
    application_id: BENCH_APPLICATION_ID,
    token: `bench${process.pid}x${i}`,
    version: 1,
    type: 2,
    guild_id: guildId,
    channel_id: '700000000000000003',
    member: { user: { id: '700000000000000004', username: 'bench', discriminator: '0', avatar: null }, permissions: '2048', roles: [], joined_at: '2026-01-01T00:00:00Z', deaf: false, mute: false, flags: 0 },
    data: { id: '700000000000000005', name: 'ask', type: 1, options: [{ name: 'question', type: 3, value: QUESTIONS[i % QUESTIONS.length] }] },
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': guildId },
  };
}
