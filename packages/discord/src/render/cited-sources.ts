import type { APIEmbedField } from 'discord-api-types/v10';
import type { CitedPassage } from '../queries/load-cited-passages.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { COLORS } from './colors.ts';
import { DISCORD_LIMITS } from './limits.ts';
import { notice } from './notice.ts';
import { inert, oneLine, titledLink, truncate } from './text.ts';

const TITLE = 'Sources of this answer';

/** The Sources button: each cited passage with its source and an excerpt, as one ephemeral embed. */
export function citedSourcesMessage(passages: CitedPassage[]): OutgoingMessage {
  if (passages.length === 0) return notice('This answer cited no sources.');
  const fields: APIEmbedField[] = [];
  let total = TITLE.length;
  for (const p of passages) {
    const field = {
      name: truncate(`[${p.n}] ${inert(oneLine(p.title ?? p.url ?? 'Untitled source'))}`, 200),
      value: truncate(
        [
          p.url ? titledLink(p.heading ?? 'Open the source', p.url, 80) : p.heading ? inert(oneLine(p.heading)) : '',
          p.content ? `> ${inert(truncate(oneLine(p.content), 300))}` : '_(this passage has since been removed)_',
        ]
          .filter(Boolean)
          .join('\n'),
        DISCORD_LIMITS.fieldValue,
      ),
    };
    if (fields.length === DISCORD_LIMITS.fieldsPerEmbed || total + field.name.length + field.value.length > DISCORD_LIMITS.embedsTotal - 100) break;
    fields.push(field);
    total += field.name.length + field.value.length;
  }
  const hidden = passages.length - fields.length;
  return {
    content: '',
    embeds: [{ title: TITLE, fields, color: COLORS.sources, ...(hidden > 0 ? { footer: { text: `${hidden} more not shown` } } : {}) }],
    components: [],
    flags: 0,
  };
}
