import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { openDatabase, withService } from '@brain/db';
import { FINAL_EDIT_MS, generateDevKeyPair } from '@brain/discord';
import { embedLocally } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { guildSlashCommand, startFakeDiscord, startFakeOpenAI, type FakeDiscord, type FakeOpenAI } from '@brain/testkit';
import { seededDataDir, spawnBrain, waitFor, type BrainProcess } from './brain-process.ts';

// `brain start` on the embedded database, answering a real (signed) Discord /ask through a chat
// model, receives SIGTERM while the answer is still being written.
const APPLICATION_ID = '910000000000000001';
const GUILD = '910000000000000002';
const QUESTION = 'When do we deploy?';
const ANSWER = 'Deploys go out on Tuesdays, after the review [1].';

describe('brain start on SIGTERM with an answer in flight', () => {
  const keys = generateDevKeyPair();
  let dataDir: string;
  let openai: FakeOpenAI;
  let discord: FakeDiscord;
  let seq = 0;

  beforeAll(async () => {
    // Vectors that carry the text's words (the local embedder's), as a real model's would, so the
    // saved note is retrieved for a question about deploys.
    openai = await startFakeOpenAI({ vectorFor: (input) => Array.from(embedLocally(input)) });
    discord = await startFakeDiscord();
    // A claimed workspace for the guild with one saved note; brain start's worker indexes it.
    dataDir = await seededDataDir(async (db) => {
      const [ws] = await withService(db, (tx) =>
        tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('shutdown', $1, 'owner@example.com', now()) returning id", [GUILD]),
      );
      await saveSource(db, { workspaceId: ws?.id as string, input: { kind: 'text', title: 'Deploys', text: '# Deploys\n\nDeploys go out on Tuesdays, after the review.' }, savedBy: 'test' });
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([openai?.close(), discord?.close()]);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  type Brain = BrainProcess & { url: string };

  /** Spawns `brain start` on a free port and resolves once it prints its health URL. */
  async function startBrain(env: Record<string, string>): Promise<Brain> {
    const brain = spawnBrain(['start', '--port', '0'], {
      BRAIN_DATA_DIR: dataDir,
      BRAIN_PLAYGROUND: 'off',
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_API_BASE: discord.apiBase,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
      ...env,
    });
    const [, port] = await brain.waitForOutput(/health:\s+http:\/\/localhost:(\d+)\/healthz/);
    return Object.assign(brain, { url: `http://127.0.0.1:${port}` });
  }

  /** The seeded note's job is done (by this process or the previous one): /metrics reads the queue from the database. */
  const indexed = (brain: Brain) =>
    waitFor(
      async () => {
        const text = await (await fetch(`${brain.url}/metrics`)).text();
        return /^brain_jobs_queued 0$/m.test(text) && /^brain_jobs_running 0$/m.test(text);
      },
      120_000,
      'the saved note to be indexed',
      brain.output,
    );

  function slash(name: string, options: { name: string; value: string }[]) {
    seq += 1;
    return guildSlashCommand({ applicationId: APPLICATION_ID, guildId: GUILD, name, options, sequence: seq, tokenPrefix: 'shutdown' });
  }

  /** POSTs the interaction signed the way Discord signs it; returns the acknowledgement. */
  async function send(brain: Brain, interaction: object): Promise<{ status: number; json: unknown }> {
    const body = JSON.stringify(interaction);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${brain.url}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(timestamp, body), 'x-signature-timestamp': timestamp },
      body,
    });
    return { status: res.status, json: await res.json() };
  }

  it('waits for the answer to reach Discord, then exits 0 within the grace', { timeout: 240_000 }, async () => {
    openai.setChatResponder(() => ANSWER);
    const brain = await startBrain({ BRAIN_SHUTDOWN_GRACE_SECONDS: '20' });
    // The chat model answers only when the test says so: SIGTERM arrives while the answer is being written.
    const releaseChat = openai.hold('chat');
    try {
      await indexed(brain);
      const chats = openai.chatCalls.length;
      const ask = slash('ask', [{ name: 'question', value: QUESTION }]);
      expect(await send(brain, ask)).toMatchObject({ status: 200, json: { type: 5 } });
      await waitFor(() => openai.chatCalls.length > chats, 30_000, 'the answer to reach the chat model', brain.output);

      const signalledAt = Date.now();
      brain.child.kill('SIGTERM');
      // The drain has begun waiting for the answer (this rejects if the process exits first).
      await brain.waitForOutput(/draining interaction work/, 30_000);
      expect(brain.child.exitCode, 'exited with the answer still in flight').toBeNull();
      expect(discord.callsFor(ask.token)).toEqual([]);
      releaseChat();
      const exit = await brain.exited;

      expect(exit.code, brain.output()).toBe(0);
      const edits = discord.callsFor(ask.token);
      expect(edits.map((e) => e.kind)).toEqual(['edit-original']);
      expect(JSON.stringify(edits[0]?.body)).toContain('Deploys go out on Tuesdays');
      expect(edits[0]?.at).toBeLessThanOrEqual(exit.at);
      expect(exit.at - signalledAt).toBeLessThan(20_000);
    } finally {
      releaseChat();
      brain.kill();
    }
  });

  it('with a grace shorter than the answer, exits soon after it: the asker is told to ask again, a running job goes back to the queue', { timeout: 240_000 }, async () => {
    const brain = await startBrain({ BRAIN_SHUTDOWN_GRACE_SECONDS: '1' });
    let releaseEmbeddings = () => {};
    try {
      await indexed(brain);
      // From here on embeddings hang: neither the job /save queues nor the answer can finish.
      releaseEmbeddings = openai.hold('embeddings');
      const save = slash('save', [
        { name: 'text', value: 'Rollbacks use the previous image tag.' },
        { name: 'title', value: 'Release drill' },
      ]);
      expect(await send(brain, save)).toMatchObject({ status: 200, json: { type: 5 } });
      await waitFor(() => openai.embeddingCalls.some((c) => c.inputs.some((i) => i.includes('Rollbacks'))), 30_000, 'the worker to embed the saved text', brain.output);
      const ask = slash('ask', [{ name: 'question', value: QUESTION }]);
      expect(await send(brain, ask)).toMatchObject({ status: 200, json: { type: 5 } });
      await waitFor(() => openai.embeddingCalls.some((c) => c.inputs.some((i) => i.includes(QUESTION))), 30_000, 'the question to reach the embedder', brain.output);

      const signalledAt = Date.now();
      brain.child.kill('SIGTERM');
      const exit = await brain.exited;

      expect(exit.code, brain.output()).toBe(0);
      // The grace (1 s), then the last edits; a drain on any other deadline (the old 25 s) fails here.
      expect(exit.at - signalledAt).toBeLessThan(1_000 + FINAL_EDIT_MS);
      const notice = discord.callsFor(ask.token).at(-1);
      expect(JSON.stringify(notice?.body)).toMatch(/restarted before I could finish\. Please try again/);
      expect(notice?.at).toBeLessThanOrEqual(exit.at);
      // The save's reply is not left at "thinking…" either.
      expect(discord.callsFor(save.token).length).toBeGreaterThan(0);
    } finally {
      releaseEmbeddings();
      brain.kill();
    }

    // The job that was running is back in the queue, its attempt not counted, for the next start.
    const db = await openDatabase(loadConfig({ BRAIN_DATA_DIR: dataDir }, { cwd: dataDir }).database, { command: 'test' });
    try {
      const jobs = await withService(db, (tx) =>
        tx.query<{ status: string; attempts: number; locked_by: string | null }>(
          "select j.status, j.attempts, j.locked_by from jobs j join artifacts a on a.id = j.artifact_id where a.title = 'Release drill'",
        ),
      );
      expect(jobs).toEqual([{ status: 'queued', attempts: 0, locked_by: null }]);
    } finally {
      await db.close();
    }
  });
});
