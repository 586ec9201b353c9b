import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import { createLogger } from '@brain/observability';
import { createDiscordApi, parseCommandLine, PlaygroundChannel, slashCommands, startDiscordEmulator, type DiscordEmulator } from '../src/index.ts';

const commands = Object.values(slashCommands).map((c) => c.definition);

describe('parseCommandLine', () => {
  it('reads a typed line the way Discord’s picker fills options', () => {
    expect(parseCommandLine('/ask How do we deploy?', commands)).toEqual({ name: 'ask', options: [{ name: 'question', type: 3, value: 'How do we deploy?' }], resolvedChannels: {} });
    expect(parseCommandLine('/save https://example.com/a title: The A page', commands).options).toEqual([
      { name: 'url', type: 3, value: 'https://example.com/a' },
      { name: 'title', type: 3, value: 'The A page' },
    ]);
    expect(parseCommandLine('/save remember: deploys are on Fridays', commands).options).toEqual([{ name: 'text', type: 3, value: 'remember: deploys are on Fridays' }]);
    expect(parseCommandLine('/forget source: abc restore: true', commands).options).toEqual([
      { name: 'source', type: 3, value: 'abc' },
      { name: 'restore', type: 5, value: true },
    ]);
    expect(parseCommandLine('/sources status: failed', commands).options).toEqual([{ name: 'status', type: 3, value: 'failed' }]);
  });

  it('picks a subcommand and resolves a channel option the way Discord fills `data.resolved.channels`', () => {
    const channels = [{ id: '10', name: 'help', type: 15, parentId: null }];
    expect(parseCommandLine('/sync add channel: #help pins_only: true', commands, { channels })).toEqual({
      name: 'sync',
      options: [{ name: 'add', type: 1, options: [{ name: 'channel', type: 7, value: '10' }, { name: 'pins_only', type: 5, value: true }] }],
      resolvedChannels: { '10': { id: '10', name: 'help', type: 15, parent_id: null } },
    });
    expect(parseCommandLine('/sync list', commands, { channels }).options).toEqual([{ name: 'list', type: 1, options: [] }]);
    expect(() => parseCommandLine('/sync add channel: #nowhere', commands, { channels })).toThrow('channel is one of: #help.');
    expect(() => parseCommandLine('/sync fly', commands, { channels })).toThrow('/sync needs one of: add, remove, list');
  });

  it('explains what is wrong, like Discord would refuse to send it', () => {
    expect(() => parseCommandLine('/teleport', commands)).toThrow('There is no /teleport. Try /save, /ask, /sources, /forget, /billing, /mcp-token, /audience, /sync, /autoanswer.');
    expect(() => parseCommandLine('/ask', commands)).toThrow('/ask needs question: e.g. /ask question: …');
    expect(() => parseCommandLine('/sources status: lost', commands)).toThrow('status is one of: queued, indexing, ready, failed.');
    expect(() => parseCommandLine('hello', commands)).toThrow('Commands start with a slash');
  });
});

describe('the playground’s Discord API emulator', () => {
  const channel = new PlaygroundChannel();
  let emulator: DiscordEmulator;
  beforeAll(async () => {
    emulator = await startDiscordEmulator(channel, createLogger({ level: 'silent' }));
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('turns an acknowledgement and an edit through discord.js REST into what the channel shows', async () => {
    const events: string[] = [];
    const unsubscribe = channel.subscribe((e) => events.push(e.message.state), 'viewer-a');
    const token = channel.openInteraction('/ask question: q', 'viewer-a');
    channel.acknowledge(token, { type: InteractionResponseType.DeferredChannelMessageWithSource });
    const api = createDiscordApi({ apiBase: emulator.apiBase, retries: 0 });
    await api.editOriginal('1', token, { content: 'done', embeds: [], components: [], flags: 0, allowed_mentions: { parse: [] } });
    await api.createFollowUp('1', token, { content: 'secret', embeds: [], components: [], flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } });
    unsubscribe();
    expect(events).toEqual(['thinking', 'done', 'done']);
    const [original, followUp] = channel.visibleTo('viewer-a').slice(-2);
    expect(original).toMatchObject({ invocation: '/ask question: q', content: 'done', state: 'done', ephemeral: false });
    expect(followUp).toMatchObject({ content: 'secret', ephemeral: true });
  });

  it('keeps an ephemeral reply to the viewer who asked: out of the shared messages, other viewers’ reads and streams', async () => {
    const others: string[] = [];
    const shared: string[] = [];
    const offOther = channel.subscribe((e) => others.push(e.message.content), 'viewer-b');
    const offShared = channel.subscribe((e) => shared.push(e.message.content));
    const api = createDiscordApi({ apiBase: emulator.apiBase, retries: 0 });
    const token = channel.openInteraction('/mcp-token create', 'viewer-a');
    channel.acknowledge(token, { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } });
    await api.editOriginal('1', token, { content: 'brain_mcp_secret', embeds: [], components: [], flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } });
    // An edit that beats its (ephemeral) acknowledgement is the viewer's own from the start.
    const early = channel.openInteraction('/mcp-token create', 'viewer-a');
    await api.editOriginal('1', early, { content: 'brain_mcp_early', embeds: [], components: [], allowed_mentions: { parse: [] } });
    channel.acknowledge(early, { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } });
    offOther();
    offShared();
    const mine = channel.visibleTo('viewer-a').map((m) => m.content);
    expect(mine).toEqual(expect.arrayContaining(['brain_mcp_secret', 'brain_mcp_early']));
    for (const seen of [JSON.stringify(channel.messages), JSON.stringify(channel.visibleTo('viewer-b')), JSON.stringify(channel.visibleTo(undefined)), others.join(), shared.join()]) {
      expect(seen).not.toContain('brain_mcp_');
    }
    const secret = channel.visibleTo('viewer-a').find((m) => m.content === 'brain_mcp_secret');
    expect(channel.find(secret?.id ?? '', 'viewer-b')).toBeUndefined();
    expect(channel.find(secret?.id ?? '', 'viewer-a')).toBe(secret);
  });

  it('answers a button press with a new message of its own, ephemeral to the presser, leaving the pressed message as it was', () => {
    const answer = channel.openInteraction('/ask question: buttons', 'viewer-a');
    channel.acknowledge(answer, { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'the answer' } });
    const pressed = channel.messages.find((m) => m.content === 'the answer');
    const press = channel.openInteraction('pressed a button', 'viewer-b', pressed?.id);
    channel.acknowledge(press, { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'Thanks for the feedback', flags: MessageFlags.Ephemeral } });
    expect(channel.visibleTo('viewer-b').find((m) => m.content === 'Thanks for the feedback')).toMatchObject({ ephemeral: true });
    expect(JSON.stringify(channel.visibleTo('viewer-a'))).not.toContain('Thanks for the feedback');
    expect(pressed?.content).toBe('the answer');
  });

  it('shares an early edit once its acknowledgement says everyone may see it', async () => {
    const api = createDiscordApi({ apiBase: emulator.apiBase, retries: 0 });
    const token = channel.openInteraction('/ask question: shared', 'viewer-a');
    await api.editOriginal('1', token, { content: 'a public answer', embeds: [], components: [], allowed_mentions: { parse: [] } });
    expect(channel.messages.some((m) => m.content === 'a public answer')).toBe(false);
    channel.acknowledge(token, { type: InteractionResponseType.DeferredChannelMessageWithSource });
    expect(channel.messages.filter((m) => m.content === 'a public answer')).toEqual([expect.objectContaining({ ephemeral: false, invocation: '/ask question: shared' })]);
    expect(channel.visibleTo('viewer-a').filter((m) => m.content === 'a public answer')).toHaveLength(1);
  });

  it('refuses what Discord refuses: bodies over the limits (50035) and unknown tokens (10015)', async () => {
    const api = createDiscordApi({ apiBase: emulator.apiBase, retries: 0 });
    const token = channel.openInteraction('/ask', 'viewer-a');
    await expect(api.editOriginal('1', token, { content: 'x'.repeat(2001) })).rejects.toMatchObject({ code: 50035, status: 400 });
    await expect(api.editOriginal('1', token, { embeds: Array.from({ length: 11 }, () => ({ description: 'e' })) })).rejects.toMatchObject({ code: 50035 });
    await expect(api.editOriginal('1', 'pg.unknown-token', { content: 'hi' })).rejects.toMatchObject({ code: 10015, status: 404 });
  });
});
