import type { DoctorCheck } from '../check.ts';
import { fail, pass, skip } from '../check.ts';

export const discordPublicKeyCheck: DoctorCheck = {
  id: 'discord-public-key',
  title: 'Discord public key',
  async run(ctx) {
    const key = ctx.env.DISCORD_PUBLIC_KEY?.trim();
    if (!key) return skip('DISCORD_PUBLIC_KEY is not set: no Discord server can reach this installation (the playground still works)');
    if (!/^[0-9a-f]{64}$/i.test(key)) {
      const shape = /^[0-9a-f]*$/i.test(key) ? `${key.length} hex characters` : `${key.length} characters, not all hex`;
      return fail(
        `DISCORD_PUBLIC_KEY is ${shape}; an Ed25519 public key is 64 hex characters`,
        'Copy "Public Key" from the Discord developer portal (your application → General Information) into DISCORD_PUBLIC_KEY. It is not the bot token or the client secret.',
      );
    }
    return pass(`64 hex characters (${key.slice(0, 8)}…)`);
  },
};
