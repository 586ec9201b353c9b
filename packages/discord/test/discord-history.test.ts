import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIMessage } from 'discord-api-types/v10';
import { fakeMessage, forumPostFixture, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';
import { createDiscordHistory, threadMessages } from '../src/index.ts';

const GUILD = '930000000000000001';
let history: FakeDiscordHistory;
const post = forumPostFixture({ guildId: GUILD, startMs: Date.parse('2026-11-30T09:00:00Z') });

beforeAll(async () => {
  history = await startFakeDiscordHistory();
  history.addMessages(post.id, post.messages);
});
afterAll(() => history.close());

describe('reading a thread’s history', () => {
  it('walks forward 100 at a time from the start, oldest first, with the bot token', async () => {
    const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: 't0ken' });
    const seen: number[] = [];
    const before = history.requests.length;
    const all = await reader.readAll(post.id, { onPage: (n) => void seen.push(n) });
    expect(all.map((m) => m.id)).toEqual(post.messages.map((m) => m.id));
    expect(seen).toEqual([100, 200, 242]);
    const asked = history.requests.slice(before);
    expect(asked.map((r) => r.query.get('after'))).toEqual(['0', all[99]?.id, all[199]?.id]);
    expect(asked.every((r) => r.headers.authorization === 'Bot t0ken' && r.query.get('limit') === '100')).toBe(true);
  });

  it('waits out a short 429 and fails with a reason when Discord asks for a longer wait than allowed', async () => {
    const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: 't', maxRateLimitWaitMs: 3_000 });
    history.rateLimitNext(1, 0.1);
    expect(await reader.readAll(post.id)).toHaveLength(242);
    history.rateLimitNext(1, 120);
    const started = Date.now();
    const error = await reader.readAll(post.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DISCORD_RATE_LIMITED', retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('turns 403 and 404 into reasons a person can act on', async () => {
    history.channel('930000000000000009').forbidden = true;
    const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: 't' });
    await expect(reader.readAll('930000000000000009')).rejects.toMatchObject({ code: 'DISCORD_MISSING_ACCESS', httpStatus: 403 });
    await expect(reader.readAll('930000000000000008')).rejects.toMatchObject({ code: 'DISCORD_CHANNEL_NOT_FOUND' });
  });
});

describe('threadMessages', () => {
  const place = { guildId: GUILD, threadId: post.id, parentId: '930000000000000002' };

  it('keeps people’s messages with display names, times, replies and jump links; drops bots and system notices', () => {
    const messages = threadMessages(post.messages as unknown as APIMessage[], place);
    expect(messages).toHaveLength(240);
    expect(messages.some((m) => m.author === 'HelperBot' || m.author === 'Newcomer')).toBe(false);
    const tenth = messages[9];
    expect(tenth).toMatchObject({ author: 'Ada', replyTo: 'Ken', url: `https://discord.com/channels/${GUILD}/${post.id}/${post.byNumber.get(10)?.id}` });
    expect(messages[0]?.id).toBe(post.id);
  });

  it('fails with how to switch the Message Content intent on when every message arrives empty', () => {
    const empty = post.messages.slice(0, 5).map((m) => ({ ...m, content: '' }));
    expect(() => threadMessages(empty as unknown as APIMessage[], place)).toThrow(expect.objectContaining({ code: 'DISCORD_MESSAGE_CONTENT_OFF', nextStep: expect.stringContaining('Message Content Intent') }));
    // One image-only message is not a missing intent.
    const image = fakeMessage({ id: post.id, channelId: post.id, author: 'Ada', content: '', attachments: [{ id: '1', filename: 'x.png', size: 1, url: 'https://cdn.discordapp.com/x.png', proxy_url: 'https://media.discordapp.net/x.png' }] });
    expect(threadMessages([image] as unknown as APIMessage[], place)).toHaveLength(1);
  });
});
