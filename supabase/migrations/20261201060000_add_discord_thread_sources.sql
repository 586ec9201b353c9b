-- "Save thread to brain": a whole Discord thread (or forum post) is one source, and each of its
-- passages knows which messages it holds, so a citation can open the exact message it quotes.
alter table public.artifacts drop constraint artifacts_kind_check;
alter table public.artifacts add constraint artifacts_kind_check
  check (kind in ('url', 'file', 'text', 'discord_message', 'discord_thread'));

-- [{"start": 0, "end": 118, "message_id": "…", "url": "https://discord.com/channels/…"}]: offsets
-- into content, one entry per message the passage holds. NULL for sources that are not
-- conversations. A column of chunks, so the chunks' forced RLS policy covers it as it stands.
alter table public.chunks add column message_spans jsonb;
alter table public.chunks add constraint chunks_message_spans_is_array
  check (message_spans is null or jsonb_typeof(message_spans) = 'array');

comment on column public.chunks.message_spans is
  'For conversation sources (discord_thread): which message each range of content comes from, with its jump link.';
