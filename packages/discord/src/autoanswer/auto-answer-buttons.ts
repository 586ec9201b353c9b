import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord-api-types/v10';
import { CITED_SOURCES_PREFIX } from '../render/answer-message.ts';

/** 👍/👎 under an auto-answer: `av:up:<auto answer id>`. Not /ask's `fb`: a thread's answer gets a vote per reader. */
export const AUTO_VOTE_PREFIX = 'av';
/** "Still need help?": `ah:<auto answer id>`. */
export const STILL_NEED_HELP_PREFIX = 'ah';

const helpButton = (autoAnswerId: string): APIComponentInMessageActionRow => ({
  type: ComponentType.Button,
  style: ButtonStyle.Primary,
  emoji: { name: '🙋' },
  label: 'Still need help?',
  custom_id: `${STILL_NEED_HELP_PREFIX}:${autoAnswerId}`,
});

/** The row under an auto-answer: 👍 / 👎, Sources when it cites any, and "Still need help?". */
export function autoAnswerButtons(autoAnswerId: string, queryId: string, cites: boolean): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const buttons: APIComponentInMessageActionRow[] = [
    { type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '👍' }, label: 'Helpful', custom_id: `${AUTO_VOTE_PREFIX}:up:${autoAnswerId}` },
    { type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '👎' }, label: 'Not helpful', custom_id: `${AUTO_VOTE_PREFIX}:down:${autoAnswerId}` },
  ];
  if (cites) buttons.push({ type: ComponentType.Button, style: ButtonStyle.Secondary, emoji: { name: '📚' }, label: 'Sources', custom_id: `${CITED_SOURCES_PREFIX}:${queryId}` });
  buttons.push(helpButton(autoAnswerId));
  return [{ type: ComponentType.ActionRow, components: buttons }];
}

/** Under a short line (nothing covers it, the allowance, a failure, the rate limit): only a way to reach staff. */
export function stillNeedHelpRow(autoAnswerId: string): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  return [{ type: ComponentType.ActionRow, components: [helpButton(autoAnswerId)] }];
}

/** The auto answer a button names, or undefined for a malformed custom id. */
export function autoAnswerIdOf(customId: string): string | undefined {
  const id = customId.split(':').at(-1) ?? '';
  return /^[0-9a-f-]{36}$/i.test(id) ? id : undefined;
}
