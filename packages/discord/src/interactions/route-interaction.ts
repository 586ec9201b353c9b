import {
  ApplicationCommandType,
  ComponentType,
  InteractionType,
  type APIApplicationCommandAutocompleteInteraction,
  type APIChatInputApplicationCommandInteraction,
  type APIInteraction,
  type APIMessageApplicationCommandInteraction,
  type APIMessageComponentButtonInteraction,
} from 'discord-api-types/v10';
import { buttonHandlers, messageCommands, slashCommands } from '../commands/index.ts';
import type { ButtonHandler, MessageCommand, SlashCommand } from './types.ts';

export type Routed =
  | { kind: 'slash'; label: string; handler: SlashCommand; interaction: APIChatInputApplicationCommandInteraction }
  | { kind: 'message'; label: string; handler: MessageCommand; interaction: APIMessageApplicationCommandInteraction }
  | { kind: 'button'; label: string; handler: ButtonHandler; interaction: APIMessageComponentButtonInteraction }
  | { kind: 'autocomplete'; label: string; handler: SlashCommand; interaction: APIApplicationCommandAutocompleteInteraction };

/** The handler for an interaction, or undefined for a command or button this release does not know. */
export function routeInteraction(interaction: APIInteraction): Routed | undefined {
  switch (interaction.type) {
    case InteractionType.ApplicationCommand: {
      if (interaction.data.type === ApplicationCommandType.ChatInput) {
        const handler = slashCommands[interaction.data.name];
        return handler && { kind: 'slash', label: `/${interaction.data.name}`, handler, interaction: interaction as APIChatInputApplicationCommandInteraction };
      }
      if (interaction.data.type === ApplicationCommandType.Message) {
        const handler = messageCommands[interaction.data.name];
        return handler && { kind: 'message', label: interaction.data.name, handler, interaction: interaction as APIMessageApplicationCommandInteraction };
      }
      return undefined;
    }
    case InteractionType.ApplicationCommandAutocomplete: {
      const handler = slashCommands[interaction.data.name];
      return handler?.autocomplete && { kind: 'autocomplete', label: `/${interaction.data.name} autocomplete`, handler, interaction };
    }
    case InteractionType.MessageComponent: {
      if (interaction.data.component_type !== ComponentType.Button) return undefined;
      const prefix = interaction.data.custom_id.split(':')[0] ?? '';
      const handler = buttonHandlers[prefix];
      return handler && { kind: 'button', label: `button ${prefix}`, handler, interaction: interaction as APIMessageComponentButtonInteraction };
    }
    default:
      return undefined;
  }
}
