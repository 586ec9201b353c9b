import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRateLimiter } from '@brain/accounts';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { createGuildWorkspace, messageCommand, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

// Far longer than the test, so no window rolls over halfway through it.
const LONG = 100_000_000;

/** The same interaction, sent by another member of the server. */
function asMember<T extends object>(body: T, userId: string): T {
  const member = (body as { member: { user: object } }).member;
  return { ...body, member: { ...member, user: { ...member.user, id: userId } } };
}

describeDb('save rate limits on Discord', (suite) => {
  let discord: FakeDiscord;
  let h: Harness;
  let guild: { guildId: string; workspaceId: string };

  beforeAll(async () => {
    discord = await startFakeDiscord();
    h = await startHarness({
      db: suite.db,
      discord,
      saveRateLimits: { counter: createRateLimiter(suite.db), perMember: { limit: 2, windowSeconds: LONG }, perWorkspace: { limit: 3, windowSeconds: LONG } },
    });
    guild = await createGuildWorkspace(suite.db);
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  const artifacts = async () =>
    (await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts where workspace_id = $1', [guild.workspaceId])))[0]?.n;

  /** The reply's last edit: "Saving…" then the outcome, or the refusal straight away. */
  async function lastEdit(body: { token: string }, edits: number): Promise<string> {
    const calls = await discord.waitForCalls(body.token, edits);
    const content: unknown = calls[calls.length - 1]?.body.content;
    return typeof content === 'string' ? content : '';
  }

  it("/save past a member's limit edits the reply with the code and when to try again, and saves nothing", async () => {
    for (let i = 0; i < 2; i++) {
      const body = slash(guild.guildId, 'save', [{ name: 'text', value: `note ${i} from Ada` }]);
      await h.send(body);
      expect(await lastEdit(body, 1)).toMatch(/^⏳ Saving/);
    }
    const body = slash(guild.guildId, 'save', [{ name: 'text', value: 'one note too many' }]);
    expect((await h.send(body)).json).toEqual({ type: 5 });
    expect(await lastEdit(body, 1)).toMatch(/^⚠️ You have saved 2 sources in the last .+, the most one member may\. Try again in .+; nothing was saved this time\. \(`SAVE_RATE_LIMITED_MEMBER`\)$/);
    expect(await artifacts()).toBe(2);
  });

  it('"Save to brain" by another member past the server\'s limit is refused with the workspace code', async () => {
    const first = asMember(messageCommand(guild.guildId, { content: 'Grace wrote this' }), '300000000000000002');
    await h.send(first);
    expect(await lastEdit(first, 1)).toMatch(/^⏳ Saving/);
    const second = asMember(messageCommand(guild.guildId, { content: 'and this' }), '300000000000000003');
    await h.send(second);
    expect(await lastEdit(second, 1)).toMatch(/^⚠️ This server has saved 3 sources in the last .+\. Try again in .+ \(`SAVE_RATE_LIMITED_WORKSPACE`\)$/);
    expect(await artifacts()).toBe(3);
  });
});
