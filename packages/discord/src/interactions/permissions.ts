import { PermissionFlagsBits, type APIInteraction } from 'discord-api-types/v10';

/** What an admin-only command needs: Manage Server, or Administrator (which implies everything). */
export const ADMIN_PERMISSIONS = PermissionFlagsBits.ManageGuild;

/**
 * Re-checks the member's permissions from the interaction payload (their permissions in that
 * channel, overwrites included). default_member_permissions only hides a command by default;
 * a server admin can grant it to anyone, so the server decides again here.
 */
export function isServerAdmin(interaction: APIInteraction): boolean {
  const raw = interaction.member?.permissions;
  if (!raw || !/^\d+$/.test(raw)) return false;
  const permissions = BigInt(raw);
  return (permissions & PermissionFlagsBits.Administrator) !== 0n || (permissions & ADMIN_PERMISSIONS) === ADMIN_PERMISSIONS;
}
