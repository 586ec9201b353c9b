import type { RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { autoAnswerVoteButton } from '../components/auto-answer-vote.ts';
import { citedSourcesButton } from '../components/cited-sources.ts';
import { feedbackButton } from '../components/feedback.ts';
import { restoreSourceButton } from '../components/restore-source.ts';
import { sourcesPageButton } from '../components/sources-page.ts';
import { stillNeedHelpButton } from '../components/still-need-help.ts';
import type { ButtonHandler, MessageCommand, SlashCommand } from '../interactions/types.ts';
import { askCommand } from './ask.ts';
import { audienceCommand } from './audience.ts';
import { autoanswerCommand } from './autoanswer.ts';
import { billingCommand } from './billing.ts';
import { forgetCommand } from './forget.ts';
import { markSolvedCommand } from './mark-solved.ts';
import { mcpTokenCommand } from './mcp-token.ts';
import { saveMessageCommand } from './save-message.ts';
import { saveThreadCommand } from './save-thread.ts';
import { saveCommand } from './save.ts';
import { sourcesCommand } from './sources.ts';
import { syncCommand } from './sync.ts';

/** Every slash command, by name. Static imports: a missing command fails the typecheck. */
export const slashCommands: Record<string, SlashCommand> = {
  save: saveCommand,
  ask: askCommand,
  sources: sourcesCommand,
  forget: forgetCommand,
  billing: billingCommand,
  'mcp-token': mcpTokenCommand,
  audience: audienceCommand,
  sync: syncCommand,
  autoanswer: autoanswerCommand,
};

/** Message context-menu commands, by their display name. */
export const messageCommands: Record<string, MessageCommand> = {
  [saveMessageCommand.definition.name]: saveMessageCommand,
  [saveThreadCommand.definition.name]: saveThreadCommand,
  [markSolvedCommand.definition.name]: markSolvedCommand,
};

/** Button handlers, by the prefix of their custom_id. */
export const buttonHandlers: Record<string, ButtonHandler> = Object.fromEntries(
  [feedbackButton, citedSourcesButton, sourcesPageButton, restoreSourceButton, autoAnswerVoteButton, stillNeedHelpButton].map((h) => [h.prefix, h]),
);

/** What `brain register-commands` uploads (a bulk overwrite: the set on Discord becomes exactly this). */
export function commandDefinitions(): RESTPostAPIApplicationCommandsJSONBody[] {
  return [...Object.values(slashCommands).map((c) => c.definition), ...Object.values(messageCommands).map((c) => c.definition)];
}
