import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import type { AskOutcome } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { startFakeDiscord, waitUntil, type FakeDiscord } from '@brain/testkit';
import { createGuildWorkspace, recordQuery, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

describeDb('request logs', (suite) => {
  const lines: Record<string, unknown>[] = [];
  let discord: FakeDiscord;
  let h: Harness;
  let guild: { guildId: string; workspaceId: string };

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    discord = await startFakeDiscord();
    guild = await createGuildWorkspace(suite.db);
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'q');
    const outcome: AskOutcome = { answer: 'Yes [1].', grounded: true, citations: [], queryId, trimmed: false, answerer: 'extractive', model: null };
    h = await startHarness({ db: suite.db, discord, logger: createLogger({ level: 'info', destination }), ask: async () => outcome });
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  it('carry the request id, tie it to the interaction id, and carry the interaction id through the deferred work', async () => {
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'Is it logged?' }]);
    expect((await h.send(body)).json).toEqual({ type: 5 });
    await discord.waitForCalls(body.token, 1);
    await waitUntil(() => lines.some((l) => l.msg === 'interaction done'), { what: "the 'interaction done' log line" });

    const received = lines.find((l) => l.msg === 'interaction received');
    expect(received).toMatchObject({ interactionId: body.id });
    expect(typeof received?.reqId).toBe('string');
    const sameRequest = lines.filter((l) => l.reqId === received?.reqId).map((l) => l.msg);
    expect(sameRequest).toEqual(expect.arrayContaining(['incoming request', 'interaction received', 'request completed']));
    expect(lines.find((l) => l.msg === 'interaction done')).toMatchObject({ interactionId: body.id, command: '/ask' });
    // The interaction's token is a credential for editing its reply: it never reaches a log line.
    expect(JSON.stringify(lines)).not.toContain(body.token);
  });
});
