import { ButtonStyle, ComponentType, type APIComponentInMessageActionRow } from 'discord-api-types/v10';
import type { SourcePage, SourceSummary } from '@brain/ingest';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { COLORS } from './colors.ts';
import { sourceLine } from './source-lines.ts';

export const SOURCES_PAGE_PREFIX = 's';
export const SOURCES_PAGE_SIZE = 10;

const STATUS_CODES = { queued: 'q', indexing: 'i', ready: 'r', failed: 'f' } as const;
type StatusFilter = SourceSummary['status'] | undefined;

/** A page button's custom_id: `s:<page>:<status>:<cursor>`, at most 100 characters. */
export function sourcesPageId(page: number, status: StatusFilter, cursor: string | null): string {
  return `${SOURCES_PAGE_PREFIX}:${page}:${status ? STATUS_CODES[status] : '-'}:${cursor ?? ''}`;
}

export function parseSourcesPageId(customId: string): { page: number; status: StatusFilter; cursor: string | undefined } | undefined {
  const match = /^s:(\d{1,4}):([qifr-]):(.*)$/.exec(customId);
  if (!match) return undefined;
  const status = (Object.entries(STATUS_CODES).find(([, code]) => code === match[2])?.[0] ?? undefined) as StatusFilter;
  return { page: Number(match[1]), status, cursor: match[3] || undefined };
}

/** One page of /sources, newest first, with First / Next buttons when there is more. */
export function renderSourcesPage(page: SourcePage, options: { page: number; status: StatusFilter; factsKnown?: boolean }): OutgoingMessage {
  // Said on every page: without the guild's roles and overwrites, a channel's sources stay in that channel.
  const scope = options.factsKnown === false ? ' · Without a bot token, each source is cited only in its channel and that channel’s threads' : '';
  const pages = Math.max(1, Math.ceil(page.total / SOURCES_PAGE_SIZE));
  const filter = options.status ? ` ${options.status}` : '';
  if (page.total === 0) {
    return {
      content: '',
      embeds: [{ title: `Sources${filter}`, description: options.status ? `No${filter} sources.` : 'Nothing saved yet. Add something with `/save`, or **Save to brain** on a message.', color: COLORS.sources }],
      components: [],
      flags: 0,
    };
  }
  const buttons: APIComponentInMessageActionRow[] = [];
  if (options.page > 1) {
    buttons.push({ type: ComponentType.Button, style: ButtonStyle.Secondary, label: '⏮ First', custom_id: sourcesPageId(1, options.status, null) });
  }
  if (page.nextCursor) {
    buttons.push({ type: ComponentType.Button, style: ButtonStyle.Primary, label: 'Next ▶', custom_id: sourcesPageId(options.page + 1, options.status, page.nextCursor) });
  }
  return {
    content: '',
    embeds: [
      {
        title: `Sources${filter} — ${page.total}`,
        description: page.sources.map(sourceLine).join('\n'),
        footer: { text: `Page ${options.page} of ${pages} · /forget removes a source from answers${scope}` },
        color: COLORS.sources,
      },
    ],
    components: buttons.length > 0 ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
    flags: 0,
  };
}
