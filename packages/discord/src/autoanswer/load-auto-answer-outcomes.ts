import { withWorkspace, type Database } from '@brain/db';
import { AUTOANSWER_COLUMNS, autoanswerChannelOf, type AutoanswerChannel } from './autoanswer-channel.ts';

/** Every state an auto_answers row can be in: the outcomes, and pending (being answered now). */
export const AUTO_ANSWER_STATES = ['answered', 'uncovered', 'not_entitled', 'failed', 'forbidden', 'rate_limited', 'pending'] as const;
export type AutoAnswerState = (typeof AUTO_ANSWER_STATES)[number];
export type OutcomeCounts = Record<AutoAnswerState, number>;

export interface RecentAutoAnswer {
  id: string;
  threadId: string;
  outcome: AutoAnswerState;
  reason: string | null;
  question: string | null;
  queryId: string | null;
  createdAt: Date;
  up: number;
  down: number;
  staffAsked: boolean;
}

export interface ChannelOutcomes {
  channelId: string;
  /** Its settings while /autoanswer is on there; undefined once turned off (its history stays). */
  setting: AutoanswerChannel | undefined;
  counts: OutcomeCounts;
  up: number;
  down: number;
  staffAsked: number;
  recent: RecentAutoAnswer[];
}

export interface AutoAnswerOutcomes {
  days: number;
  totals: OutcomeCounts;
  up: number;
  down: number;
  staffAsked: number;
  channels: ChannelOutcomes[];
}

const zero = (): OutcomeCounts => Object.fromEntries(AUTO_ANSWER_STATES.map((s) => [s, 0])) as OutcomeCounts;
const stateOf = (value: unknown): AutoAnswerState => ((AUTO_ANSWER_STATES as readonly unknown[]).includes(value) ? (value as AutoAnswerState) : 'failed');

/**
 * What the dashboard shows of auto-answers over the last `days`: counts per outcome, 👍/👎 and
 * staff pings, overall and per channel, and each channel's latest `recentPerChannel` triggers with
 * why. Read as the workspace (Row Level Security).
 */
export async function loadAutoAnswerOutcomes(db: Database, workspaceId: string, options: { days: number; recentPerChannel?: number }): Promise<AutoAnswerOutcomes> {
  const recentPerChannel = options.recentPerChannel ?? 10;
  return withWorkspace(db, workspaceId, async (tx) => {
    const since = `now() - make_interval(days => $2::int)`;
    const [settings, counts, recent] = [
      await tx.query<Record<string, unknown>>(`select ${AUTOANSWER_COLUMNS} from public.autoanswer_channels where workspace_id = $1 order by created_at, channel_id`, [workspaceId]),
      await tx.query<{ channel_id: string; outcome: string; n: number; up: number; down: number; staff: number }>(
        `select a.channel_id, a.outcome, count(*)::int as n,
                coalesce(sum(v.up), 0)::int as up, coalesce(sum(v.down), 0)::int as down,
                count(*) filter (where a.silenced_at is not null)::int as staff
           from public.auto_answers a
           left join lateral (
             select count(*) filter (where vote = 'up') as up, count(*) filter (where vote = 'down') as down
               from public.auto_answer_votes where auto_answer_id = a.id
           ) v on true
          where a.workspace_id = $1 and a.created_at > ${since}
          group by a.channel_id, a.outcome`,
        [workspaceId, options.days],
      ),
      await tx.query<{ id: string; channel_id: string; thread_id: string; outcome: string; reason: string | null; question: string | null; query_id: string | null; created_at: Date | string; up: number; down: number; staff: boolean }>(
        `select * from (
           select a.id, a.channel_id, a.thread_id, a.outcome, a.reason, q.question, a.query_id, a.created_at,
                  (select count(*) from public.auto_answer_votes v where v.auto_answer_id = a.id and v.vote = 'up')::int as up,
                  (select count(*) from public.auto_answer_votes v where v.auto_answer_id = a.id and v.vote = 'down')::int as down,
                  a.silenced_at is not null as staff,
                  row_number() over (partition by a.channel_id order by a.created_at desc, a.id) as n
             from public.auto_answers a
             left join public.queries q on q.id = a.query_id
            where a.workspace_id = $1 and a.created_at > ${since}
         ) r where r.n <= $3
         order by r.created_at desc, r.id`,
        [workspaceId, options.days, recentPerChannel],
      ),
    ];
    const channels = new Map<string, ChannelOutcomes>();
    const channel = (id: string) => {
      let c = channels.get(id);
      if (!c) channels.set(id, (c = { channelId: id, setting: undefined, counts: zero(), up: 0, down: 0, staffAsked: 0, recent: [] }));
      return c;
    };
    for (const row of settings) {
      const setting = autoanswerChannelOf(row);
      channel(setting.channelId).setting = setting;
    }
    const totals = zero();
    let up = 0;
    let down = 0;
    let staffAsked = 0;
    for (const row of counts) {
      const c = channel(row.channel_id);
      const state = stateOf(row.outcome);
      c.counts[state] += row.n;
      totals[state] += row.n;
      c.up += row.up;
      c.down += row.down;
      c.staffAsked += row.staff;
      up += row.up;
      down += row.down;
      staffAsked += row.staff;
    }
    for (const row of recent) {
      channel(row.channel_id).recent.push({
        id: row.id,
        threadId: row.thread_id,
        outcome: stateOf(row.outcome),
        reason: row.reason,
        question: row.question,
        queryId: row.query_id,
        createdAt: new Date(row.created_at),
        up: row.up,
        down: row.down,
        staffAsked: row.staff,
      });
    }
    return { days: options.days, totals, up, down, staffAsked, channels: [...channels.values()] };
  });
}
