import { ApplicationCommandOptionType, type APIApplicationCommandInteractionDataBasicOption, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { AppError } from '@brain/errors';

export interface ParsedCommandLine {
  name: string;
  options: APIApplicationCommandInteractionDataBasicOption[];
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
  options: { partial?: boolean } = {},
): ParsedCommandLine {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) throw refuse('Commands start with a slash, e.g. /ask how do we deploy?');
  const [, name = '', rest = ''] = match;
  const command = commands.find((c) => c.name === name.toLowerCase());
  if (!command) throw refuse(`There is no /${name}. Try ${commands.map((c) => `/${c.name}`).join(', ')}.`);
  const known = (command.options ?? []).filter((o) => o.type !== ApplicationCommandOptionType.Subcommand && o.type !== ApplicationCommandOptionType.SubcommandGroup);
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
    } else throw refuse(`The playground cannot send a ${spec.name} option; try another way to /${name}.`);
  }
  return { name: command.name, options: parsed };
}
