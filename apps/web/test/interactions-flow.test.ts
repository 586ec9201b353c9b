import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import type { AskFunction, AskOutcome } from '@brain/discord';
import { AppError, type ErrorCode } from '@brain/errors';
import { completeJob, holdJob, saveSource, type IngestServices } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { expectNoMoreCalls, startFakeDiscord, waitUntil, type FakeDiscord } from '@brain/testkit';
import { startWorker, type Task } from '@brain/worker';
import { autocomplete, button, createGuildWorkspace, messageCommand, recordQuery, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

const logger = createLogger({ level: 'silent' });

/** What the worker does to an artifact, reduced to its visible effect: ready with N passages. */
const indexes =
  (passages: number): Task =>
  async (services, job, workerId) => {
    await services.db.transaction(async (tx) => {
      await tx.exec('set local role service_role');
      if (!(await holdJob(tx, job.id, workerId))) throw new AppError({ code: 'LEASE_LOST', message: 'lost' });
      await tx.query("update artifacts set status = 'ready', chunk_count = $2, title = coalesce(title, 'Deploy guide'), indexed_at = now() where id = $1", [job.artifactId, passages]);
      await completeJob(tx, job.id, workerId);
    });
  };
const fails: Task = async () => {
  throw new AppError({ code: 'FETCH_HTTP_STATUS' as ErrorCode, message: 'HTTP 404', userMessage: 'The page answered 404 Not Found.', nextStep: 'Check the link.' });
};

async function runWorker(db: Database, task: Task) {
  return startWorker({ db, logger } as unknown as IngestServices, { logger, tasks: { ingest: task }, pollMs: 50 });
}

describeDb('deferred interactions: acknowledge, work, edit', (suite) => {
  let discord: FakeDiscord;
  let h: Harness;
  let guild: { guildId: string; workspaceId: string };
  let askImpl: AskFunction = async () => Promise.reject(new Error('unset'));
  let clockOffset = 0;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    h = await startHarness({ db: suite.db, discord, ask: (input) => askImpl(input), now: () => Date.now() + clockOffset });
    guild = await createGuildWorkspace(suite.db);
  });
  afterAll(async () => {
    await h.close();
    await discord.close();
  });

  const answer = (queryId: string, text: string): AskOutcome => ({
    answer: text,
    grounded: true,
    citations: [{ n: 1, artifactId: 'a', chunkId: 'c', title: 'Deploy guide', url: 'https://docs.example.com/deploy', heading: null, similarity: 0.9 }],
    queryId,
    trimmed: false,
    answerer: 'extractive',
    model: 'extractive-v1',
  });

  it('/ask: type 5 at once, then a PATCH of @original with the answer, no mentions parsed, previews handled by flags', async () => {
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'How do we deploy?');
    const seen: unknown[] = [];
    askImpl = async (input) => {
      seen.push(input);
      return answer(queryId, 'We deploy on Fridays [1].');
    };
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'How do we deploy?' }]);
    const started = performance.now();
    const res = await h.send(body);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.json).toEqual({ type: 5 });
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.kind).toBe('edit-original');
    expect(edit?.applicationId).toBe(body.application_id);
    expect(edit?.headers.authorization).toBeUndefined();
    expect(edit?.body).toMatchObject({ content: '', flags: 0, allowed_mentions: { parse: [] } });
    expect((edit?.body.embeds as { description?: string }[])[0]?.description).toBe('We deploy on Fridays [1].');
    expect(JSON.stringify(edit?.body.components)).toContain(`fb:up:${queryId}`);
    expect(seen[0]).toMatchObject({ workspaceId: guild.workspaceId, question: 'How do we deploy?', surface: 'discord', askedBy: '300000000000000001', interactionId: body.id });
  });

  it('/ask: a failing model ends in an edited error message, never silence', async () => {
    askImpl = async () => {
      throw new AppError({ code: 'ANSWER_MODEL_FAILED', message: 'upstream 500', userMessage: 'The language model failed.', nextStep: 'Try again in a minute.' });
    };
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'anything?' }]);
    expect((await h.send(body)).json).toEqual({ type: 5 });
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.body).toMatchObject({ content: '⚠️ The language model failed. Try again in a minute. (`ANSWER_MODEL_FAILED`)', embeds: [], components: [], flags: 4, allowed_mentions: { parse: [] } });
  });

  it('/ask: a model that never answers is cut off and the reply says so; an unexpected crash too', async () => {
    askImpl = async ({ signal }) =>
      new Promise((_, reject) => {
        const timer = setTimeout(() => reject(new AppError({ code: 'ANSWER_MODEL_TIMEOUT', message: 't', userMessage: 'The language model took too long to answer.' })), 200);
        signal.addEventListener('abort', () => clearTimeout(timer));
      });
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'slow?' }]);
    await h.send(body);
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.body.content).toContain('took too long');
    askImpl = async () => {
      throw new TypeError('boom');
    };
    const crash = slash(guild.guildId, 'ask', [{ name: 'question', value: 'crash?' }]);
    await h.send(crash);
    const [crashed] = await discord.waitForCalls(crash.token, 1);
    expect(crashed?.body.content).toBe('⚠️ Something went wrong on our side. Try again in a minute; if it keeps happening, tell the server operator.');
  });

  it('mentions inside saved content and answers never ping: allowed_mentions is empty and the text is defused', async () => {
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'q');
    askImpl = async () => answer(queryId, 'Hey @everyone and @here, ask <@&123456789012345678> or <@123456789012345678> [1].');
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'who do I ask? @everyone' }]);
    await h.send(body);
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.body.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.stringify(edit?.body)).not.toMatch(/@everyone|@here|<@&?\d+>/);
  });

  it('retries a 429 after its retry_after and still delivers', async () => {
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'q');
    askImpl = async () => answer(queryId, 'Fine [1].');
    discord.failNext({ status: 429, headers: { 'retry-after': '0.3', 'x-ratelimit-scope': 'user' }, body: { message: 'You are being rate limited.', retry_after: 0.3, global: false } });
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'rate?' }]);
    const sent = Date.now();
    await h.send(body);
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.at).toBeGreaterThanOrEqual(sent + 300);
    expect((edit?.body.embeds as { description?: string }[])[0]?.description).toBe('Fine [1].');
  });

  it('/save: edits to "Saving…", then to "Saved *Title* — N passages" when the worker finishes', async () => {
    const worker = await runWorker(suite.db, indexes(7));
    try {
      const body = slash(guild.guildId, 'save', [{ name: 'url', value: 'https://docs.example.com/deploy?utm_source=x' }]);
      expect((await h.send(body)).json).toEqual({ type: 5 });
      const [saving, saved] = await discord.waitForCalls(body.token, 2);
      expect(saving?.body.content).toBe('⏳ Saving <https://docs.example.com/deploy> — fetching and indexing…');
      expect(saved?.body).toMatchObject({ content: '✅ Saved *Deploy guide* — 7 passages · <https://docs.example.com/deploy>', flags: 4, allowed_mentions: { parse: [] } });
    } finally {
      await worker.stop();
    }
  });

  it('/save: edits again with the reason when indexing fails', async () => {
    const worker = await runWorker(suite.db, fails);
    try {
      const body = slash(guild.guildId, 'save', [{ name: 'url', value: 'https://docs.example.com/missing' }]);
      await h.send(body);
      const [, failed] = await discord.waitForCalls(body.token, 2);
      expect(failed?.body.content).toBe(
        "❌ Couldn't save *https://docs.example.com/missing* · <https://docs.example.com/missing>: The page answered 404 Not Found. Check the link. (`FETCH_HTTP_STATUS`)",
      );
    } finally {
      await worker.stop();
    }
  });

  it('/save file: downloads the attachment and saves its bytes as a file source', async () => {
    const downloads: string[] = [];
    const withFiles = await startHarness({
      db: suite.db,
      discord,
      downloadAttachment: async (url) => {
        downloads.push(url);
        return { bytes: Buffer.from('# Runbook\n\nRestart the queue with care.'), contentType: 'text/markdown' };
      },
    });
    try {
      const attachment = { id: '555', filename: 'runbook.md', size: 40, url: 'https://cdn.discordapp.com/attachments/1/2/runbook.md', proxy_url: 'https://media.discordapp.net/x', content_type: 'text/markdown' };
      const body = slash(guild.guildId, 'save', [{ name: 'file', value: '555', type: 11 }], { resolved: { attachments: { '555': attachment } } });
      await withFiles.send(body);
      const [saving] = await discord.waitForCalls(body.token, 1);
      expect(saving?.body.content).toBe('⏳ Saving *runbook.md* — fetching and indexing…');
      expect(downloads).toEqual([attachment.url]);
      const [row] = await withService(suite.db, (tx) => tx.query<{ kind: string; file_name: string; mime_type: string }>("select kind, file_name, mime_type from artifacts where file_name = 'runbook.md'"));
      expect(row).toEqual({ kind: 'file', file_name: 'runbook.md', mime_type: 'text/markdown' });
    } finally {
      await withFiles.close();
    }
  });

  it('/save: refuses bad input at once, without deferring', async () => {
    const none = await h.send(slash(guild.guildId, 'save'));
    expect(none.json.type).toBe(4);
    expect(none.json.data.content).toContain('Tell me what to save');
    const two = await h.send(slash(guild.guildId, 'save', [{ name: 'url', value: 'https://a.test' }, { name: 'text', value: 'b' }]));
    expect(two.json.data.content).toContain('One thing at a time');
    const bad = await h.send(slash(guild.guildId, 'save', [{ name: 'url', value: 'ftp://a.test/x' }]));
    expect(bad.json.data.content).toContain('Only web links (http or https) can be saved');
  });

  it('no edit is attempted once the 15-minute token window has passed', async () => {
    const body = slash(guild.guildId, 'save', [{ name: 'text', value: 'A note that indexes slowly' }]);
    await h.send(body);
    await discord.waitForCalls(body.token, 1); // "Saving…"
    clockOffset = 15 * 60_000; // the interaction is now 15 minutes old
    const worker = await runWorker(suite.db, indexes(2));
    try {
      // Indexing finishes, the watcher sees it (it polls every 50 ms) and would edit now: it must not.
      const status = async () =>
        (await withService(suite.db, (tx) => tx.query<{ status: string }>("select status from artifacts where title = 'A note that indexes slowly'")))[0]?.status;
      await waitUntil(async () => (await status()) === 'ready', { what: 'the note to be indexed' });
      await expectNoMoreCalls(() => discord.callsFor(body.token), 500);
      expect(discord.callsFor(body.token)).toHaveLength(1);
    } finally {
      clockOffset = 0;
      await worker.stop();
    }
  });

  it('"Save to brain" saves the message with its jump link as the citation', async () => {
    const worker = await runWorker(suite.db, indexes(1));
    try {
      const body = messageCommand(guild.guildId, { content: 'We rotate keys every 90 days @everyone' });
      await h.send(body);
      const [, saved] = await discord.waitForCalls(body.token, 2);
      const target = Object.values(body.data.resolved.messages)[0] as { id: string };
      expect(saved?.body.content).toContain(`<https://discord.com/channels/${guild.guildId}/200000000000000001/${target.id}>`);
      const [row] = await withService(suite.db, (tx) => tx.query<{ url: string; author: string }>('select url, author from artifacts where source_key like $1', [`%/${target.id}`]));
      expect(row).toEqual({ url: `https://discord.com/channels/${guild.guildId}/200000000000000001/${target.id}`, author: 'Grace' });
    } finally {
      await worker.stop();
    }
  });

  it('👍 stores the vote on the queries row and confirms privately', async () => {
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'q');
    const body = button(guild.guildId, `fb:up:${queryId}`);
    expect((await h.send(body)).json).toEqual({ type: 5, data: { flags: 64 } });
    const [edit] = await discord.waitForCalls(body.token, 1);
    expect(edit?.body.content).toContain('👍 Thanks');
    const [row] = await withService(suite.db, (tx) => tx.query<{ feedback: string; feedback_by: string }>('select feedback, feedback_by from queries where id = $1', [queryId]));
    expect(row).toEqual({ feedback: 'up', feedback_by: '300000000000000001' });
  });

  it('/forget autocompletes this workspace’s sources only, forgets with a receipt, and Undo restores', async () => {
    const other = await createGuildWorkspace(suite.db);
    const mine = await saveSource(suite.db, { workspaceId: guild.workspaceId, input: { kind: 'text', text: 'Roadmap for Q3', title: 'Roadmap Q3' }, savedBy: 't' });
    await saveSource(suite.db, { workspaceId: other.workspaceId, input: { kind: 'text', text: 'Roadmap of another server', title: 'Roadmap elsewhere' }, savedBy: 't' });
    const res = await h.send(autocomplete(guild.guildId, 'forget', [{ name: 'source', value: 'roadm', focused: true }]));
    expect(res.json.type).toBe(8);
    expect(res.json.data.choices).toEqual([{ name: 'Roadmap Q3 — queued', value: mine.artifacts[0]?.artifactId }]);

    const forget = slash(guild.guildId, 'forget', [{ name: 'source', value: mine.artifacts[0]?.artifactId as string }]);
    expect((await h.send(forget)).json).toEqual({ type: 5, data: { flags: 64 } });
    const [receipt] = await discord.waitForCalls(forget.token, 1);
    expect(receipt?.body.content).toMatch(/^🗑️ Forgot \*Roadmap Q3\*: its 0 passages no longer answer questions\.\nRestorable until <t:\d+:D>/);
    const undo = button(guild.guildId, `r:${mine.artifacts[0]?.artifactId}`);
    expect((await h.send(undo)).json).toEqual({ type: 6 });
    const [restored] = await discord.waitForCalls(undo.token, 1);
    expect(restored?.body.content).toContain('↩️ Restored *Roadmap Q3*');
  });

  it('/sources lists this workspace’s sources with their status, ephemerally', async () => {
    const body = slash(guild.guildId, 'sources');
    await h.send(body);
    const [edit] = await discord.waitForCalls(body.token, 1);
    const embed = (edit?.body.embeds as { title: string; description: string }[])[0];
    expect(embed?.title).toMatch(/^Sources — \d+$/);
    expect(embed?.description).toContain('Roadmap Q3');
    expect(embed?.description).not.toContain('Roadmap elsewhere');
  });

  it('a gated workspace gets billing’s message instead of an answer', async () => {
    const gated = await startHarness({ db: suite.db, discord, checkEntitlement: async () => ({ allowed: false, message: 'Your free asks are used up. Subscribe: https://brain.example.com/billing' }) });
    try {
      const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'q' }]);
      await gated.send(body);
      const [edit] = await discord.waitForCalls(body.token, 1);
      expect(edit?.body.content).toBe('Your free asks are used up. Subscribe: https://brain.example.com/billing');
      expect(edit?.body.flags).toBe(4);
    } finally {
      await gated.close();
    }
  });

  it('/save during shutdown: the wait for indexing ends and the last edit says it is still indexing', async () => {
    const draining = await startHarness({ db: suite.db, discord });
    const body = slash(guild.guildId, 'save', [{ name: 'text', value: 'Indexed after the restart' }]);
    await draining.send(body);
    await discord.waitForCalls(body.token, 1);
    await draining.close(); // no worker runs: only the drain can end the wait
    const last = discord.callsFor(body.token).at(-1);
    expect(discord.callsFor(body.token)).toHaveLength(2);
    expect(last?.body.content).toBe('⏳ *Indexed after the restart* is still indexing (queued). `/sources` shows when it is ready.');
  });

  it('drains on shutdown: an answer in flight is still delivered after close begins', async () => {
    const queryId = await recordQuery(suite.db, guild.workspaceId, 'q');
    // The answer is held until the drain has begun waiting for it (its log line), so it is in flight across the close.
    let drainBegan = () => {};
    const heldUntilDrain = new Promise<void>((resolve) => (drainBegan = resolve));
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (chunk.toString().includes('"msg":"draining interaction work"')) drainBegan();
        done();
      },
    });
    const draining = await startHarness({
      db: suite.db,
      discord,
      logger: createLogger({ level: 'info', destination }),
      ask: async () => {
        await heldUntilDrain;
        return answer(queryId, 'Delivered during the drain [1].');
      },
    });
    const body = slash(guild.guildId, 'ask', [{ name: 'question', value: 'drain?' }]);
    await draining.send(body);
    await waitUntil(() => draining.surface.inFlight.size === 1, { what: 'the answer to be in flight' });
    await draining.close(); // what SIGTERM does: stop taking requests, then wait for in-flight work
    expect(discord.callsFor(body.token)).toHaveLength(1);
    expect((discord.callsFor(body.token)[0]?.body.embeds as { description?: string }[])[0]?.description).toBe('Delivered during the drain [1].');
  });
});
