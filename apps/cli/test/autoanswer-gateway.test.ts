import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { describeDb } from '@brain/db/testing';
import { UNCOVERED_REACTION } from '@brain/discord';
import { expectNoMoreCalls } from '@brain/testkit';
import { BOT_TOKEN, FORUM, OTHER, startAutoanswerHarness, type AutoanswerHarness } from './autoanswer-harness.ts';
import { waitFor } from './brain-process.ts';

// Auto-answers end to end: /autoanswer on through the web app, discord.js connected to the fake
// Gateway (its URL from the fake REST's GET /gateway/bot), a new forum post dispatched as
// THREAD_CREATE + MESSAGE_CREATE, the real ask pipeline over a saved and indexed source, and the
// reply posted in the thread over REST. Two runners share one database lease.
describeDb('auto-answers over the Gateway', (suite) => {
  let h: AutoanswerHarness;

  beforeAll(async () => {
    h = await startAutoanswerHarness(suite.db, 'gateway');
  }, 60_000);

  afterEach(() => h.stopRunners());
  afterAll(() => h?.close());

  const runner = (holder: string) => h.runner(holder);
  const command = (sub: 'on' | 'off' | 'list', extra: Record<string, unknown>[] = [], permissions: bigint = PermissionFlagsBits.ManageGuild) => h.command(sub, extra, permissions);
  const post = (parent: string, title: string, content: string, author?: { id: string; bot?: boolean }) => h.post(parent, title, content, author);
  const dispatchStarter = (id: string, content: string) => h.dispatchStarter(id, content);
  const outcomes = (threadId: string) => h.outcomes(threadId).then((rows) => rows.map(({ id: _id, reply_message_id: _reply, ...rest }) => rest));
  const finished = (threadId: string) => h.finished(threadId);

  it('stays disconnected while no channel has /autoanswer on, then /autoanswer on (admins only) connects it', async () => {
    const r = runner('solo');
    await expectNoMoreCalls(h.gateway.connections, 800);
    expect(h.gateway.connections).toHaveLength(0);
    expect(r.connected()).toBe(false);

    expect(await command('on', [], PermissionFlagsBits.SendMessages)).toMatch(/Manage Server/);
    const on = await command('on', [
      { name: 'channel', type: ApplicationCommandOptionType.Channel, value: FORUM },
      { name: 'when_uncovered', type: ApplicationCommandOptionType.String, value: 'reaction' },
    ]);
    expect(on).toContain(`every new post or thread in <#${FORUM}>`);
    expect(await command('list')).toContain(`<#${FORUM}>`);
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    // The URL came from GET /gateway/bot on the configured API base; the intents are exactly these.
    expect(h.server.requests.some((q) => q.path === '/api/v10/gateway/bot')).toBe(true);
    expect(h.gateway.connections[0]).toMatch(/^\/\?v=10&encoding=json/);
    expect(h.gateway.identifies.at(-1)).toMatchObject({ token: BOT_TOKEN, intents: (1 << 0) | (1 << 9) | (1 << 10) | (1 << 15) });
  }, 40_000);

  it('answers a new forum post once in its thread, cited, recorded as surface auto; a replay and a second message get nothing more', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const thread = post(FORUM, 'API rate limit per minute?', 'What is the API rate limit per minute per token?');
    await h.bot.waitFor(thread, 1, 20_000);
    await finished(thread);
    const replies = h.bot.posts.filter((p) => p.channelId === thread);
    expect(replies).toHaveLength(1);
    const reply = replies[0]?.body as { embeds: { description?: string; title?: string }[]; allowed_mentions: unknown; message_reference?: { message_id: string } };
    const text = reply.embeds.map((e) => `${e.title ?? ''}\n${e.description ?? ''}`).join('\n');
    expect(text).toContain('120 requests per minute');
    expect(text).toMatch(/\[1\]/);
    expect(text).toContain('Rate limits');
    expect(reply.allowed_mentions).toEqual({ parse: [] });
    expect(reply.message_reference?.message_id).toBe(thread);
    expect(await outcomes(thread)).toEqual([{ outcome: 'answered', reason: null, surface: 'auto', grounded: true, answer: expect.stringContaining('120 requests per minute') }]);

    // The same dispatch again (a re-identify's reconcile), and a later message in the thread.
    dispatchStarter(thread, 'What is the API rate limit per minute per token?');
    h.reply(thread, 'What is the rate limit?');
    await expectNoMoreCalls(h.bot.posts, 600);
    await r.idle();
    expect(h.bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);
  }, 40_000);

  it('posts nothing public for a post nothing covers: the channel’s reaction, and the reason recorded', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const thread = post(FORUM, 'Kubernetes ingress', 'How do I configure the kubernetes ingress controller annotations?');
    await finished(thread);
    await r.idle();
    expect(h.bot.posts.filter((p) => p.channelId === thread)).toEqual([]);
    expect(h.bot.reactions.filter((x) => x.channelId === thread)).toEqual([{ channelId: thread, messageId: thread, emoji: UNCOVERED_REACTION }]);
    const [row] = await outcomes(thread);
    expect(row).toMatchObject({ outcome: 'uncovered', surface: 'auto', grounded: false });
    // Why, as the pipeline said it (nothing retrieved, or what no saved source mentions).
    expect(row?.reason).toBeTruthy();
    expect(row?.reason).toBe(row?.answer);
  }, 40_000);

  it('ignores bot authors and channels without /autoanswer', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const fromBot = post(FORUM, 'Rate limit?', 'What is the API rate limit per minute?', { id: '350000000000000077', bot: true });
    const elsewhere = post(OTHER, 'Rate limit?', 'What is the API rate limit per minute?');
    await expectNoMoreCalls(h.bot.posts, 800);
    await r.idle();
    expect(h.bot.posts.filter((p) => p.channelId === fromBot || p.channelId === elsewhere)).toEqual([]);
    expect(await outcomes(fromBot)).toEqual([]);
    expect(await outcomes(elsewhere)).toEqual([]);
  }, 40_000);

  it('resumes a dropped connection and answers what it missed, once', async () => {
    const r = runner('solo');
    await waitFor(() => r.connected(), 20_000, 'the Gateway connection');
    const resumesBefore = h.gateway.resumes.length;
    const identifiesBefore = h.gateway.identifies.length;
    h.gateway.drop(4000);
    // Posted while the bot is away: Discord keeps it for the session's RESUME.
    const thread = post(FORUM, 'Rate limit setting', 'Which setting raises the API rate limit per minute?');
    await waitFor(() => h.gateway.resumes.length > resumesBefore && h.gateway.liveSessions() === 1, 20_000, 'the RESUME');
    await finished(thread);
    await r.idle();
    expect(h.gateway.identifies.length).toBe(identifiesBefore);
    expect(h.gateway.connections.at(-1)).toMatch(/^\/resume\?v=10&encoding=json/);
    expect(h.bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);
    expect((await outcomes(thread))[0]?.outcome).toBe('answered');
  }, 40_000);

  it('two workers never both connect; the standby takes over when the holder’s lease lapses', async () => {
    const identifiesBefore = h.gateway.identifies.length;
    const a = runner('worker-a');
    const b = runner('worker-b');
    await waitFor(() => a.connected() || b.connected(), 20_000, 'one connection');
    const [holder, standby] = a.connected() ? [a, b] : [b, a];
    await expectNoMoreCalls(h.gateway.identifies, 1_000);
    expect([a.connected(), b.connected()].filter(Boolean)).toHaveLength(1);
    expect(h.gateway.liveSessions()).toBe(1);
    expect(h.gateway.identifies.length - identifiesBefore).toBe(1);
    const thread = post(FORUM, 'Rate limit per token', 'What is the API rate limit per minute per token?');
    await finished(thread);
    await Promise.all([a.idle(), b.idle()]);
    expect(h.bot.posts.filter((p) => p.channelId === thread)).toHaveLength(1);

    // The holder dies without giving the lease up: the standby waits for it to lapse, then connects.
    await holder.stop({ release: false });
    await waitFor(() => standby.connected(), 20_000, 'the standby to take over');
    expect(h.gateway.liveSessions()).toBe(1);
    expect(h.gateway.identifies.length - identifiesBefore).toBe(2);
  }, 60_000);
});
