import type { APIEmbed } from 'discord-api-types/v10';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';

/** Discord's message limits (developers/resources/message.mdx); a body over any of them is a 400. */
export const DISCORD_LIMITS = {
  content: 2000,
  embedsPerMessage: 10,
  embedTitle: 256,
  embedDescription: 4096,
  fieldsPerEmbed: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  /** Title, description, field names and values, footer and author of all embeds together. */
  embedsTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
} as const;

/** The characters of an embed that count towards the 6,000 total. */
export function embedCharacters(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/** Every limit a message breaks, as sentences; empty when Discord would accept it. */
export function limitViolations(message: Pick<OutgoingMessage, 'content' | 'embeds' | 'components'>): string[] {
  const L = DISCORD_LIMITS;
  const problems: string[] = [];
  const over = (what: string, length: number, max: number) => {
    if (length > max) problems.push(`${what} is ${length} characters (max ${max})`);
  };
  over('content', message.content.length, L.content);
  if (message.embeds.length > L.embedsPerMessage) problems.push(`${message.embeds.length} embeds (max ${L.embedsPerMessage})`);
  message.embeds.forEach((e, i) => {
    over(`embed ${i} title`, e.title?.length ?? 0, L.embedTitle);
    over(`embed ${i} description`, e.description?.length ?? 0, L.embedDescription);
    over(`embed ${i} footer`, e.footer?.text.length ?? 0, L.footerText);
    over(`embed ${i} author`, e.author?.name.length ?? 0, L.authorName);
    if ((e.fields?.length ?? 0) > L.fieldsPerEmbed) problems.push(`embed ${i} has ${e.fields?.length} fields (max ${L.fieldsPerEmbed})`);
    (e.fields ?? []).forEach((f, j) => {
      over(`embed ${i} field ${j} name`, f.name.length, L.fieldName);
      over(`embed ${i} field ${j} value`, f.value.length, L.fieldValue);
    });
  });
  over('all embeds together', message.embeds.reduce((n, e) => n + embedCharacters(e), 0), L.embedsTotal);
  if (message.components.length > L.actionRows) problems.push(`${message.components.length} action rows (max ${L.actionRows})`);
  for (const row of message.components) {
    if (row.components.length > L.buttonsPerRow) problems.push(`a row of ${row.components.length} components (max ${L.buttonsPerRow})`);
    for (const c of row.components) {
      const id = 'custom_id' in c ? c.custom_id : undefined;
      if (id !== undefined) over(`custom_id ${id.slice(0, 20)}…`, id.length, L.customId);
    }
  }
  return problems;
}
