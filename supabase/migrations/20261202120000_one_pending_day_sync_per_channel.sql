-- Edits and deletes in a synced channel's own messages (outside threads) queue a pass over just
-- the days they were posted on (task sync_channel_days, queued by the Gateway). At most one such
-- pass waits per channel: later edits add their days to it. Only a queued one counts, so an edit
-- while a pass runs queues the next one instead of being lost. Full passes (sync_channel) keep
-- their own index and are never held back by these.
create unique index jobs_one_pending_day_sync_idx on public.jobs ((payload ->> 'synced_channel_id'))
  where task = 'sync_channel_days' and status = 'queued';
