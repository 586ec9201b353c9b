import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord-api-types/v10';
import type { AskOutcome } from '../interactions/types.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { COLORS } from './colors.ts';
import { DISCORD_LIMITS, embedCharacters } from './limits.ts';
import { splitOnParagraphs } from './split-paragraphs.ts';
import { inert, oneLine, titledLink, truncate, unping } from './text.ts';

/** The sources list never takes more than this of a message's 6,000 characters. */
const SOURCES_BUDGET = 1800;

export const FEEDBACK_PREFIX = 'fb';

/** The whole of what a public reply says about sources only the asker may read: fixed words, nothing from them. */
export const PRIVATE_ANSWER_HINT = '🔒 A private answer may be available to you: ask again with `/ask private:True`.';
export const CITED_SOURCES_PREFIX = 'cs';

/**
 * An answer as Discord messages: the answer in embeds (split on paragraphs, 4,096 characters
 * each), then a numbered sources list whose titles link to each source's URL or jump link, and
 * 👍 / 👎 / Sources buttons. The first message replaces "thinking…"; any further ones are
 * follow-ups. Every message is within Discord's limits (10 embeds, 6,000 characters).
 */
export function renderAnswer(question: string, result: AskOutcome): OutgoingMessage[] {
  const sources = sourcesEmbed(result);
  const footer = footerText(result);
  const reserve = (sources ? embedCharacters(sources) : 0) + footer.length;
  const title = truncate(`❓ ${unping(oneLine(question))}`, DISCORD_LIMITS.embedTitle);
  // The first piece shares its message with the title, sources and footer; later ones do not.
  const firstMax = Math.min(DISCORD_LIMITS.embedDescription, DISCORD_LIMITS.embedsTotal - reserve - title.length);
  const answer = unping(result.answer) + (result.privateAnswerAvailable ? `\n\n${PRIVATE_ANSWER_HINT}` : '');
  const parts = splitOnParagraphs(answer, DISCORD_LIMITS.embedDescription);
  const [first = '', ...rest] = (parts[0]?.length ?? 0) > firstMax ? splitOnParagraphs(answer, firstMax) : parts;

  const embeds: APIEmbed[] = [
    { title, description: first, color: COLORS.answer },
    ...rest.map((description) => ({ description, color: COLORS.answer })),
  ];
  const last = embeds.at(-1) as APIEmbed;
  if (footer) last.footer = { text: footer };
  if (sources) embeds.push(sources);

  const messages = packEmbeds(embeds);
  const final = messages.at(-1) as OutgoingMessage;
  final.components = answerButtons(result);
  return messages;
}

function sourcesEmbed(result: AskOutcome): APIEmbed | undefined {
  if (result.citations.length === 0) return undefined;
  const lines: string[] = [];
  let used = 0;
  const sorted = [...result.citations].sort((a, b) => a.n - b.n);
  for (const [i, c] of sorted.entries()) {
    const heading = c.heading && c.heading !== c.title ? ` › ${inert(truncate(oneLine(c.heading), 60))}` : '';
    const line = `**[${c.n}]** ${titledLink(c.title ?? c.url ?? 'Untitled source', c.url, 90)}${heading}`;
    const more = `…and ${sorted.length - i} more: press **Sources**.`;
    if (used + line.length + 1 > SOURCES_BUDGET - more.length) {
      lines.push(more);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return { title: 'Sources', description: lines.join('\n'), color: COLORS.sources };
}

function footerText(result: AskOutcome): string {
  const by = result.answerer === 'extractive' ? 'Extractive answer (no language model)' : result.model ? `Answered by ${result.model}` : '';
  const trimmed = result.trimmed ? 'some passages were shortened to fit' : '';
  return [by, trimmed].filter(Boolean).join(' · ');
}

function answerButtons(result: AskOutcome): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const buttons: APIComponentInMessageActionRow[] = [
    { type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '👍' }, label: 'Helpful', custom_id: `${FEEDBACK_PREFIX}:up:${result.queryId}` },
    { type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '👎' }, label: 'Not helpful', custom_id: `${FEEDBACK_PREFIX}:down:${result.queryId}` },
  ];
  if (result.citations.length > 0) {
    buttons.push({ type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '📚' }, label: 'Sources', custom_id: `${CITED_SOURCES_PREFIX}:${result.queryId}` });
  }
  return [{ type: ComponentType.ActionRow, components: buttons }];
}

/** Embeds in order, as few messages as Discord's per-message limits allow. */
export function packEmbeds(embeds: APIEmbed[]): OutgoingMessage[] {
  const messages: OutgoingMessage[] = [];
  let current: APIEmbed[] = [];
  let chars = 0;
  for (const embed of embeds) {
    const size = embedCharacters(embed);
    if (current.length > 0 && (current.length === DISCORD_LIMITS.embedsPerMessage || chars + size > DISCORD_LIMITS.embedsTotal)) {
      messages.push({ content: '', embeds: current, components: [], flags: 0 });
      current = [];
      chars = 0;
    }
    current.push(embed);
    chars += size;
  }
  messages.push({ content: '', embeds: current, components: [], flags: 0 });
  return messages;
}
