-- Follow-ups count against their channel's hourly auto-answer allowance
-- (autoanswer_channels.max_per_hour), as the first answers do, so a follow-up past it ends
-- rate_limited with its short line (issue 20: a per-channel rate limit).
alter table public.follow_ups drop constraint follow_ups_outcome_check;
alter table public.follow_ups add constraint follow_ups_outcome_check
  check (outcome in ('pending', 'answered', 'uncovered', 'not_entitled', 'forbidden', 'failed', 'rate_limited'));
