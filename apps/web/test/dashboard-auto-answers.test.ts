import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService, type Queryable } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { browserFor, claimedWorkspace, logIn, type Browser } from './dashboard-harness.ts';
import { startHarness, type Harness } from './onboarding-harness.ts';

const HELP = '200000000000000011';
const GONE = '200000000000000012';
const STAFF_ROLE = '200000000000000019';

// The dashboard's auto-answer page over rows as the Gateway's auto-answers leave them (their
// making is tested end to end in apps/cli's autoanswer suites): counts per outcome, 👍/👎 and
// staff pings, each channel's recent triggers with why, and nothing of another workspace.
describeDb('the dashboard: auto-answer outcomes', (suite) => {
  let h: Harness;
  let owner: Browser;
  let answeredId: string;

  async function trigger(tx: Queryable, workspaceId: string, channel: string, outcome: string, reason: string | null, question: string, extra: { silenced?: boolean } = {}): Promise<string> {
    const [q] = await tx.query<{ id: string }>(`insert into queries (workspace_id, question, grounded, answerer, surface) values ($1, $2, $3, 'none', 'auto') returning id`, [
      workspaceId,
      question,
      outcome === 'answered',
    ]);
    const thread = String(300000000000000000n + BigInt(Math.floor(Math.random() * 1e12)));
    const [a] = await tx.query<{ id: string }>(
      `insert into auto_answers (workspace_id, channel_id, thread_id, message_id, outcome, reason, query_id, finished_at, silenced_at, silenced_by)
       values ($1, $2, $3, $3, $4, $5, $6, now(), $7, $8) returning id`,
      [workspaceId, channel, thread, outcome, reason, q?.id, extra.silenced ? new Date() : null, extra.silenced ? '350000000000000001' : null],
    );
    return a?.id as string;
  }

  beforeAll(async () => {
    h = await startHarness(suite.db);
    const a = await claimedWorkspace(suite.db, 'aateam', 'ann@example.com');
    const b = await claimedWorkspace(suite.db, 'othershop', 'oz@example.com');
    await withService(suite.db, async (tx) => {
      await tx.query(
        `insert into autoanswer_channels (workspace_id, guild_id, channel_id, channel_name, when_uncovered, staff_role_id, enabled_by, max_per_hour)
         values ($1, '100', $2, 'help', 'line', $3, 'discord:1', 5)`,
        [a, HELP, STAFF_ROLE],
      );
      answeredId = await trigger(tx, a, HELP, 'answered', null, 'What is the API rate limit?', { silenced: true });
      for (const [user, vote] of [['350000000000000001', 'up'], ['350000000000000002', 'up'], ['350000000000000003', 'down']]) {
        await tx.query('insert into auto_answer_votes (auto_answer_id, workspace_id, user_id, vote) values ($1, $2, $3, $4)', [answeredId, a, user, vote]);
      }
      await trigger(tx, a, HELP, 'answered', null, 'How do I raise it?');
      await trigger(tx, a, HELP, 'uncovered', 'No saved source mentions "kubernetes".', 'Kubernetes ingress annotations?');
      await trigger(tx, a, HELP, 'rate_limited', 'AUTOANSWER_RATE_LIMITED: the channel had its 5 auto-answers of the last hour', 'Is the API down?');
      // A channel turned off since: its history still shows.
      await trigger(tx, a, GONE, 'forbidden', 'AUTOANSWER_FORBIDDEN: Discord refused the post (403, 50013 Missing Permissions)', 'Old question');
      await trigger(tx, b, HELP, 'failed', 'ANSWER_MODEL_FAILED', 'Another workspace’s secret question');
    });
    owner = browserFor(h);
    await logIn(h, owner, 'ann@example.com', 'aateam');
  });
  afterAll(() => h.close());

  it('counts each outcome, the votes and the staff pings, and lists each channel’s recent triggers with why', async () => {
    const res = await owner.get('/dashboard/auto-answers');
    expect(res.statusCode).toBe(200);
    const page = res.body;
    expect(page).toContain('<a href="/dashboard/auto-answers" aria-current="page">Auto-answers</a>');
    const card = (state: string) => /<div class="n">(\d+)<\/div>/.exec(page.slice(page.indexOf(`data-outcome="${state}"`)))?.[1];
    expect([card('answered'), card('uncovered'), card('rate_limited'), card('forbidden'), card('failed'), card('not_entitled')]).toEqual(['2', '1', '1', '1', '0', '0']);
    expect(page).toContain('👍 2 · 👎 1');

    const section = (channel: string) => {
      const at = page.indexOf(`<section class="aa-channel" data-channel-id="${channel}"`);
      expect(at).toBeGreaterThan(-1);
      return page.slice(at, page.indexOf('</section>', at));
    };
    const help = section(HELP);
    expect(help).toContain('#help');
    expect(help).toContain('at most 5 an hour');
    expect(help).toContain(STAFF_ROLE);
    expect(help).toContain('staff asked 1');
    const row = help.slice(help.indexOf(`data-auto-answer-id="${answeredId}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/What is the API rate limit\?.*answered.*<td>2<\/td><td>1<\/td><td>yes<\/td>/s);
    expect(help).toContain('AUTOANSWER_RATE_LIMITED: the channel had its 5 auto-answers of the last hour');
    expect(help).toContain('No saved source mentions &quot;kubernetes&quot;.');
    expect(help).toMatch(/<a href="\/dashboard\/questions\/[0-9a-f-]{36}">Kubernetes ingress annotations\?<\/a>/);
    const gone = section(GONE);
    expect(gone).toContain('Auto-answer is off here now');
    expect(gone).toContain('403, 50013 Missing Permissions');
    expect(page).not.toContain('Another workspace’s secret question');
  });

  it('needs a session: signed out, the page sends the browser to the login', async () => {
    const res = await browserFor(h).get('/dashboard/auto-answers');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
  });
});
