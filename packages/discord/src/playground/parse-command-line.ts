import {
  ApplicationCommandOptionType,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { AppError } from '@brain/errors';

export interface ParsedCommandLine {
  name: string;
  options: APIApplicationCommandInteractionDataOption[];
  /** Channels picked in channel options, as Discord resolves them into `data.resolved.channels`. */
  resolvedChannels: Record<string, { id: string; name: string; type: number; parent_id: string | null }>;
}

/** A channel the picker can offer (the pretend server's). */
export interface PickableChannel {
  id: string;
  name: string;
  type: number;
  parentId: string | null;
}

function refuse(message: string): AppError {
  return new AppError({ code: 'PLAYGROUND_COMMAND_INVALID', message, httpStatus: 400 });
}

/**
 * What Discord's command picker does, from one typed line: `/ask how do we deploy?`,
 * `/save https://example.com title: Guide`, `/sources status: failed`. Options are `name: value`
 * pairs; text before the first pair goes to the command's main option (/save picks url or text).
 */
export function parseCommandLine(
  line: string,
  commands: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
  options: { partial?: boolean; channels?: readonly PickableChannel[] } = {},
): ParsedCommandLine {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) throw refuse('Commands start with a slash, e.g. /ask how do we deploy?');
  const [, name = '', rawRest = ''] = match;
  const command = commands.find((c) => c.name === name.toLowerCase());
  if (!command) throw refuse(`There is no /${name}. Try ${commands.map((c) => `/${c.name}`).join(', ')}.`);
  const subcommands = (command.options ?? []).filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
  if (subcommands.length > 0) {
    // `/sync add channel: #help`: the first word picks the subcommand, the rest are its options.
    const [, subName = '', subRest = ''] = /^(\S*)\s*([\s\S]*)$/.exec(rawRest.trim()) ?? [];
    const sub = subcommands.find((o) => o.name === subName.toLowerCase());
    if (!sub) throw refuse(`/${command.name} needs one of: ${subcommands.map((o) => o.name).join(', ')}, e.g. /${command.name} ${subcommands[0]?.name ?? ''}`);
    const parsed = parseOptions(command.name, subRest, 'options' in sub ? (sub.options ?? []) : [], options);
    return { name: command.name, options: [{ name: sub.name, type: ApplicationCommandOptionType.Subcommand, options: parsed.options }], resolvedChannels: parsed.resolvedChannels };
  }
  const parsed = parseOptions(command.name, rawRest, command.options ?? [], options);
  return { name: command.name, options: parsed.options, resolvedChannels: parsed.resolvedChannels };
}

function parseOptions(
  name: string,
  rest: string,
  specs: readonly APIApplicationCommandOption[],
  options: { partial?: boolean; channels?: readonly PickableChannel[] },
): { options: APIApplicationCommandInteractionDataBasicOption[]; resolvedChannels: ParsedCommandLine['resolvedChannels'] } {
  const known = specs.filter((o) => o.type !== ApplicationCommandOptionType.Subcommand && o.type !== ApplicationCommandOptionType.SubcommandGroup);
  const names = known.map((o) => o.name);

  const pairPattern = new RegExp(`(?:^|\\s)(${names.join('|')}):\\s*`, 'gi');
  const values = new Map<string, string>();
  const marks = [...rest.matchAll(pairPattern)];
  const lead = (marks[0] ? rest.slice(0, marks[0].index) : rest).trim();
  marks.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = marks[i + 1]?.index ?? rest.length;
    values.set((m[1] ?? '').toLowerCase(), rest.slice(start, end).trim());
  });
  if (lead) {
    const main = name === 'save' ? (/^https?:\/\//i.test(lead) ? 'url' : 'text') : known.find((o) => o.type === ApplicationCommandOptionType.String)?.name;
    if (!main) throw refuse(`/${name} takes no text; options: ${names.join(', ') || 'none'}.`);
    values.set(main, lead);
  }

  const parsed: APIApplicationCommandInteractionDataBasicOption[] = [];
  const resolvedChannels: ParsedCommandLine['resolvedChannels'] = {};
  for (const spec of known) {
    const value = values.get(spec.name);
    if (value === undefined || (value === '' && !options.partial)) {
      if (spec.required && !options.partial) throw refuse(`/${name} needs ${spec.name}: e.g. /${name} ${spec.name}: …`);
      continue;
    }
    if (spec.type === ApplicationCommandOptionType.String) {
      const choices = 'choices' in spec ? spec.choices : undefined;
      if (choices && !choices.some((c) => c.value === value)) throw refuse(`${spec.name} is one of: ${choices.map((c) => c.value).join(', ')}.`);
      parsed.push({ name: spec.name, type: spec.type, value });
    } else if (spec.type === ApplicationCommandOptionType.Boolean) {
      parsed.push({ name: spec.name, type: spec.type, value: /^(true|yes|1|on)$/i.test(value) });
    } else if (spec.type === ApplicationCommandOptionType.Channel && options.channels) {
      const wanted = value.replace(/^<#(\d+)>$/, '$1').replace(/^#/, '').toLowerCase();
      const channel = options.channels.find((c) => c.id === wanted || c.name.toLowerCase() === wanted);
      if (!channel) throw refuse(`${spec.name} is one of: ${options.channels.filter((c) => c.parentId === null).map((c) => `#${c.name}`).join(', ')}.`);
      parsed.push({ name: spec.name, type: spec.type, value: channel.id });
      resolvedChannels[channel.id] = { id: channel.id, name: channel.name, type: channel.type, parent_id: channel.parentId };
    } else throw refuse(`The playground cannot send a ${spec.name} option; try another way to /${name}.`);
  }
  return { options: parsed, resolvedChannels };
}
