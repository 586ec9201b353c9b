import {
  ApplicationCommandOptionType,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIAttachment,
  type APIChatInputApplicationCommandInteraction,
  type APIApplicationCommandAutocompleteInteraction,
  type APIInteraction,
} from 'discord-api-types/v10';

type WithOptions = APIChatInputApplicationCommandInteraction | APIApplicationCommandAutocompleteInteraction;

function option(interaction: WithOptions, name: string): APIApplicationCommandInteractionDataBasicOption | undefined {
  return (interaction.data.options ?? []).find((o): o is APIApplicationCommandInteractionDataBasicOption => o.name === name && 'value' in o);
}

export function stringOption(interaction: WithOptions, name: string): string | undefined {
  const o = option(interaction, name);
  return o?.type === ApplicationCommandOptionType.String && o.value.trim() !== '' ? o.value.trim() : undefined;
}

export function booleanOption(interaction: WithOptions, name: string): boolean | undefined {
  const o = option(interaction, name);
  return o?.type === ApplicationCommandOptionType.Boolean ? o.value : undefined;
}

/** An attachment option, resolved to the attachment Discord sent along. */
export function attachmentOption(interaction: APIChatInputApplicationCommandInteraction, name: string): APIAttachment | undefined {
  const o = option(interaction, name);
  if (o?.type !== ApplicationCommandOptionType.Attachment) return undefined;
  return interaction.data.resolved && 'attachments' in interaction.data.resolved ? interaction.data.resolved.attachments?.[o.value] : undefined;
}

/** The option the user is typing in an autocomplete interaction. */
export function focusedOption(interaction: APIApplicationCommandAutocompleteInteraction): { name: string; value: string } | undefined {
  const o = (interaction.data.options ?? []).find((x) => 'focused' in x && x.focused);
  return o && 'value' in o ? { name: o.name, value: String(o.value) } : undefined;
}

/** Who acted: the member's user in a server, the user in a DM. */
export function actingUser(interaction: APIInteraction): { id: string; name: string } {
  const user = interaction.member?.user ?? interaction.user;
  return { id: user?.id ?? 'unknown', name: user?.global_name ?? user?.username ?? 'someone' };
}

/** The subcommand a user chose (`/sync add …`): its name, one of its options by name and type, and the channel option Discord resolved. */
export interface ChosenSubcommand {
  name: string | undefined;
  value(name: string, type: ApplicationCommandOptionType): string | number | boolean | undefined;
  channel(name: string): { id: string; name: string | null; type: number | undefined } | undefined;
}

export function chosenSubcommand(interaction: APIChatInputApplicationCommandInteraction): ChosenSubcommand {
  const sub = (interaction.data.options ?? []).find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  const options = sub && 'options' in sub ? ((sub.options ?? []) as APIApplicationCommandInteractionDataBasicOption[]) : [];
  const value = (name: string, type: ApplicationCommandOptionType) => options.find((o) => o.name === name && o.type === type && 'value' in o)?.value;
  return {
    name: sub?.name,
    value,
    channel(name) {
      const id = value(name, ApplicationCommandOptionType.Channel);
      if (typeof id !== 'string') return undefined;
      const resolved = interaction.data.resolved && 'channels' in interaction.data.resolved ? interaction.data.resolved.channels?.[id] : undefined;
      return { id, name: resolved && 'name' in resolved ? (resolved.name ?? null) : null, type: resolved?.type };
    },
  };
}
