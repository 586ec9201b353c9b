import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandOptionType, MessageFlags } from 'discord-api-types/v10';
import { recordUsage } from '@brain/billing';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { FAILED_LINE, NOT_ENTITLED_LINE, RATE_LIMITED_LINE, type AskFunction } from '@brain/discord';
import { AppError } from '@brain/errors';
import { createLogger } from '@brain/observability';
import { expectNoMoreCalls, waitUntil } from '@brain/testkit';
import { ASKER, FORUM, OTHER, STAFF_ROLE, startAutoanswerHarness, type AutoanswerHarness } from './autoanswer-harness.ts';

// What people can do with an auto-answer, and how every trigger ends: 👍/👎 per person, "Still
// need help?" (the staff ping and the silence), the channel's hourly limit, and the reasons
// (billing allowance, model failure, missing permission), each recorded in auto_answers and in
// queries with surface auto. One world for the file; each case starts its own Gateway runner.
const OTHER_USER = { id: '350000000000000002', username: 'grace' };
const channelOption = (id: string) => ({ name: 'channel', type: ApplicationCommandOptionType.Channel, value: id });

interface Row {
  custom_id: string;
}

describeDb('auto-answers people can act on', (suite) => {
  let h: AutoanswerHarness;

  beforeAll(async () => {
    h = await startAutoanswerHarness(suite.db, 'feedback');
    await h.command('on', [channelOption(FORUM)]);
  }, 60_000);

  afterEach(() => h.stopRunners());
  afterAll(() => h?.close());

  async function connected(overrides: Parameters<AutoanswerHarness['runner']>[1] = {}) {
    const r = h.runner('solo', overrides);
    await waitUntil(() => r.connected(), { timeoutMs: 20_000, what: 'the Gateway connection' });
    return r;
  }

  const postsIn = (thread: string) => h.bot.posts.filter((p) => p.channelId === thread);
  const buttonsOf = (body: Record<string, unknown>) => ((body.components as { components: Row[] }[] | undefined) ?? []).flatMap((row) => row.components.map((c) => c.custom_id));
  const queryOf = (queryId: string | null) =>
    withService(suite.db, (tx) => tx.query<{ surface: string; error_code: string | null; feedback: string | null; answerer: string }>('select surface, error_code, feedback, answerer from queries where id = $1', [queryId]));
  const silencedAt = async (thread: string) => {
    const [row] = await withService(suite.db, (tx) => tx.query<{ silenced_at: Date | null; silenced_by: string | null }>('select silenced_at, silenced_by from auto_answers where thread_id = $1', [thread]));
    return row;
  };

  async function answeredThread(): Promise<{ thread: string; autoAnswerId: string; queryId: string }> {
    const thread = h.post(FORUM, 'API rate limit per minute?', 'What is the API rate limit per minute per token?');
    const row = await h.finished(thread);
    expect(row.outcome).toBe('answered');
    const [q] = await withService(suite.db, (tx) => tx.query<{ query_id: string }>('select query_id from auto_answers where id = $1', [row.id]));
    return { thread, autoAnswerId: row.id, queryId: q?.query_id as string };
  }

  it('carries 👍 / 👎, Sources and “Still need help?” naming the auto-answer; one vote per person, changeable', async () => {
    await connected();
    const { thread, autoAnswerId, queryId } = await answeredThread();
    const [reply] = postsIn(thread);
    expect(buttonsOf(reply?.body ?? {})).toEqual([`av:up:${autoAnswerId}`, `av:down:${autoAnswerId}`, `cs:${queryId}`, `ah:${autoAnswerId}`]);

    const vote = async (customId: string, user?: { id: string; username: string }) => {
      const { response, token } = await h.press(customId, { channelId: thread, ...(user ? { user } : {}) });
      expect(response).toMatchObject({ type: 5, data: { flags: MessageFlags.Ephemeral } });
      const [edit] = await h.callsFor(token, 1);
      return String(edit?.body.content);
    };
    expect(await vote(`av:up:${autoAnswerId}`)).toContain('So far: 1 👍 · 0 👎');
    expect(await vote(`av:down:${autoAnswerId}`, OTHER_USER)).toContain('So far: 1 👍 · 1 👎');
    // Ada changes her mind: still one vote of hers.
    expect(await vote(`av:down:${autoAnswerId}`)).toContain('So far: 0 👍 · 2 👎');
    const votes = await withService(suite.db, (tx) => tx.query<{ user_id: string; vote: string }>('select user_id, vote from auto_answer_votes where auto_answer_id = $1 order by user_id', [autoAnswerId]));
    expect(votes).toEqual([
      { user_id: ASKER, vote: 'down' },
      { user_id: OTHER_USER.id, vote: 'down' },
    ]);
    // The answer's queries row has the latest, through the one recordFeedback.
    expect((await queryOf(queryId))[0]?.feedback).toBe('down');
    expect(await vote('av:up:00000000-0000-4000-8000-000000000000')).toMatch(/couldn't find that answer/);
  }, 40_000);

  it('“Still need help?” without a staff role tells the presser privately how an admin sets one, and pings nobody', async () => {
    await connected();
    const { thread, autoAnswerId } = await answeredThread();
    const { token } = await h.press(`ah:${autoAnswerId}`, { channelId: thread });
    const [edit] = await h.callsFor(token, 1);
    expect(edit).toMatchObject({ kind: 'edit-original' });
    expect(String(edit?.body.content)).toMatch(/No staff role is set for <#\d+>.*`\/autoanswer on`.*staff_role/);
    await expectNoMoreCalls(() => h.discord.callsFor(token), 300);
    expect((await silencedAt(thread))?.silenced_at).toBeNull();
  }, 40_000);

  it('“Still need help?” pings only the staff role in the thread, once, and the bot stays quiet there', async () => {
    await h.command('on', [channelOption(FORUM), { name: 'staff_role', type: ApplicationCommandOptionType.Role, value: STAFF_ROLE }]);
    await connected();
    const { thread, autoAnswerId } = await answeredThread();
    const { token } = await h.press(`ah:${autoAnswerId}`, { channelId: thread });
    const [ping, done] = await h.callsFor(token, 2);
    expect(ping?.kind).toBe('follow-up');
    expect(String(ping?.body.content)).toContain(`<@&${STAFF_ROLE}>`);
    expect(String(ping?.body.content)).toContain(`<@${ASKER}>`);
    // The only mention the bot ever allows: that role, never `parse`, never the presser.
    expect(ping?.body.allowed_mentions).toEqual({ roles: [STAFF_ROLE] });
    expect(Number(ping?.body.flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    expect(done).toMatchObject({ kind: 'edit-original' });
    expect(String(done?.body.content)).toContain('stay quiet here');
    expect(await silencedAt(thread)).toMatchObject({ silenced_at: expect.any(Date), silenced_by: ASKER });

    // A second press, by anyone, pings nobody again.
    const again = await h.press(`ah:${autoAnswerId}`, { channelId: thread, user: OTHER_USER });
    const [second] = await h.callsFor(again.token, 1);
    expect(String(second?.body.content)).toMatch(/already asked/);
    await expectNoMoreCalls(() => h.discord.callsFor(again.token), 300);
    // Nor does the bot answer anything more in the thread.
    h.reply(thread, 'Is it still 120 requests per minute?');
    await expectNoMoreCalls(() => postsIn(thread), 500);
    expect(postsIn(thread)).toHaveLength(1);
  }, 40_000);

  it('the channel’s hourly limit: two posts at once with max_per_hour 1 get one answer and one rate-limited line', async () => {
    expect(await h.command('on', [channelOption(OTHER), { name: 'max_per_hour', type: ApplicationCommandOptionType.Integer, value: 1 }], undefined, OTHER)).toContain('At most 1 answer an hour there');
    await connected();
    const a = h.post(OTHER, 'Rate limit per minute?', 'What is the API rate limit per minute per token?');
    const b = h.post(OTHER, 'Rate limit setting?', 'Which setting raises the API rate limit per minute?');
    const rows = [await h.finished(a), await h.finished(b)];
    expect(rows.map((r) => r.outcome).sort()).toEqual(['answered', 'rate_limited']);
    const limited = rows.find((r) => r.outcome === 'rate_limited');
    const thread = limited === rows[0] ? a : b;
    expect(limited?.reason).toMatch(/^AUTOANSWER_RATE_LIMITED: .*1 auto-answers of the last hour/);
    const [line] = postsIn(thread);
    expect(line?.body.content).toBe(RATE_LIMITED_LINE);
    expect(buttonsOf(line?.body ?? {})).toEqual([`ah:${limited?.id}`]);
    expect(line?.body.allowed_mentions).toEqual({ parse: [] });
    const [q] = await withService(suite.db, (tx) => tx.query<{ query_id: string }>('select query_id from auto_answers where id = $1', [limited?.id]));
    expect((await queryOf(q?.query_id ?? null))[0]).toMatchObject({ surface: 'auto', error_code: 'AUTOANSWER_RATE_LIMITED', answerer: 'none' });
  }, 40_000);

  it('the billing allowance: a workspace past its free questions gets a short line, recorded not_entitled', async () => {
    const policy = { billingEnabled: true, freeSaves: 10, freeAsks: 0, pastDueGraceDays: 7, checkoutUrl: () => 'https://brain.example/checkout' };
    await connected({
      checkEntitlement: async (workspaceId, action) => {
        const e = await recordUsage(suite.db, workspaceId, action, policy);
        return e.allowed ? { allowed: true } : { allowed: false, message: e.message, code: e.code };
      },
    });
    const thread = h.post(FORUM, 'Rate limit?', 'What is the API rate limit per minute per token?');
    const row = await h.finished(thread);
    expect(row).toMatchObject({ outcome: 'not_entitled', reason: 'FREE_ALLOWANCE_USED', surface: 'auto', grounded: false });
    // A reason is a line even where the channel chose a reaction for "nothing covers this".
    await h.bot.waitFor(thread, 1);
    expect(postsIn(thread).map((p) => p.body.content)).toEqual([NOT_ENTITLED_LINE]);
    expect(h.bot.reactions.filter((x) => x.channelId === thread)).toEqual([]);
  }, 40_000);

  it('a model failure says so in the thread and records the model’s code', async () => {
    const failing: AskFunction = async () => {
      throw new AppError({ code: 'ANSWER_MODEL_FAILED', message: 'the chat model answered 500', httpStatus: 502 });
    };
    await connected({ ask: failing });
    const thread = h.post(FORUM, 'Rate limit?', 'What is the API rate limit per minute per token?');
    const row = await h.finished(thread);
    expect(row).toMatchObject({ outcome: 'failed', reason: 'ANSWER_MODEL_FAILED', surface: 'auto' });
    await h.bot.waitFor(thread, 1);
    expect(postsIn(thread).map((p) => p.body.content)).toEqual([FAILED_LINE]);
  }, 40_000);

  it('missing permission to post (403 50013): nothing in public, the outcome forbidden and a log line saying what to grant', async () => {
    const lines: string[] = [];
    await connected({ logger: createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } }) });
    const thread = h.nextId();
    h.bot.forbid(thread);
    h.post(FORUM, 'API rate limit per minute?', 'What is the API rate limit per minute per token?', undefined, thread);
    const row = await h.finished(thread);
    expect(row).toMatchObject({ outcome: 'forbidden', surface: 'auto', grounded: true });
    expect(row.reason).toMatch(/^AUTOANSWER_FORBIDDEN: .*403, 50013 Missing Permissions.*Send Messages in Threads/);
    expect(postsIn(thread)).toEqual([]);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; threadId?: string; code?: string }).filter((l) => l.threadId === thread && l.code === 'AUTOANSWER_FORBIDDEN');
    expect(logged.map((l) => l.msg)).toEqual([expect.stringContaining('Send Messages in Threads')]);
  }, 40_000);
});
