import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import type { ForgetReceipt } from '@brain/ingest';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { notice } from './notice.ts';
import { inert, oneLine, truncate } from './text.ts';

export const RESTORE_PREFIX = 'r';

function title(t: string | null, id: string): string {
  return `*${inert(truncate(oneLine(t ?? id), 120))}*`;
}

/** What /forget did, when it can be undone, and an Undo button. */
export function forgetReceiptMessage(receipt: ForgetReceipt): OutgoingMessage {
  const until = Math.floor(receipt.restorableUntil.getTime() / 1000);
  const message = notice(
    [
      `🗑️ Forgot ${title(receipt.title, receipt.id)}: its ${receipt.passages} passage${receipt.passages === 1 ? '' : 's'} no longer answer questions.`,
      `Restorable until <t:${until}:D> with **Undo** below or \`/forget source:${receipt.id} restore:True\`; after that it is deleted.`,
      `Receipt: \`${receipt.id}\` · forgotten <t:${Math.floor(receipt.forgottenAt.getTime() / 1000)}:f>`,
    ].join('\n'),
  );
  message.components = [
    {
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Undo', emoji: { name: '↩️' }, custom_id: `${RESTORE_PREFIX}:${receipt.id}` }],
    },
  ];
  return message;
}

export function restoredMessage(restored: { id: string; title: string | null; passages: number }): OutgoingMessage {
  return notice(`↩️ Restored ${title(restored.title, restored.id)}: its ${restored.passages} passage${restored.passages === 1 ? '' : 's'} answer questions again.`);
}
