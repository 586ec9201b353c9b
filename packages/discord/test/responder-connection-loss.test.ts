import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@brain/observability';
import { startFakeDiscord, startFakeHttpServer, type FakeDiscord } from '@brain/testkit';
import { createDiscordApi } from '../src/rest/discord-api.ts';
import { InteractionResponder } from '../src/rest/responder.ts';

// Found while looking for bench:ack's "missing" answer edits (those were the bench's own count:
// warm-up answers still in flight when it read its baseline). A client whose event loop lags can
// reuse a keep-alive connection the server has just closed; undici then fails the request with
// "other side closed", which @discordjs/rest does not retry (only ECONNRESET and timeouts), and
// the reply stayed "thinking…" for good. An edit of @original is idempotent, so the responder
// sends it again.
const logger = createLogger({ level: 'silent' });
const APP = '700000000000000001';

describe('edits survive a dropped connection', () => {
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord();
  });
  afterAll(() => discord.close());

  const responder = (token: string) =>
    new InteractionResponder({ api: createDiscordApi({ apiBase: discord.apiBase, timeoutMs: 2_000 }), applicationId: APP, token, interactionId: token, receivedAtMs: Date.now(), logger });

  it('re-sends an edit whose connection was closed before any answer', async () => {
    discord.failNext({ dropConnection: true });
    const delivery = await responder('drop-once').edit({ content: 'the answer', embeds: [], components: [], flags: 0 });
    expect(delivery).toBe('sent');
    expect(discord.callsFor('drop-once').map((c) => c.body.content)).toEqual(['the answer']);
  });

  it('re-sends a follow-up whose connection was closed before any answer', async () => {
    discord.failNext({ dropConnection: true }, { dropConnection: true });
    const delivery = await responder('drop-follow-up').followUp({ content: 'part 2', embeds: [], components: [], flags: 0 });
    expect(delivery).toBe('sent');
    expect(discord.callsFor('drop-follow-up')).toHaveLength(1);
  });

  it('gives up after a bounded number of attempts and says so (failed, not sent)', async () => {
    // A Discord of its own: the failures queued here would otherwise outlive the test.
    const server = await startFakeHttpServer('Discord');
    const unreachable = await startFakeDiscord({ server });
    try {
      unreachable.failNext(...Array.from({ length: 50 }, () => ({ dropConnection: true })));
      const lost = new InteractionResponder({
        api: createDiscordApi({ apiBase: unreachable.apiBase, timeoutMs: 2_000 }),
        applicationId: APP,
        token: 'always-dropped',
        interactionId: 'always-dropped',
        receivedAtMs: Date.now(),
        logger,
      });
      const delivery = await lost.edit({ content: 'never arrives', embeds: [], components: [], flags: 0 });
      expect(delivery).toBe('failed');
      expect(unreachable.callsFor('always-dropped')).toHaveLength(0);
      // Bounded: one attempt and a few retries, not one per queued failure.
      expect(server.requests.length).toBeLessThan(10);
    } finally {
      await unreachable.close();
    }
  });
});
