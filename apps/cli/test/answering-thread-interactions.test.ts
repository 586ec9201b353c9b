import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { createWorkspace, describeDb } from '@brain/db/testing';
import { createDiscordSurface, generateDevKeyPair, type DiscordApi, type DiscordSurface } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { slashCommand, startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { compose, type Composition } from '../src/compose.ts';
import { seedPassage } from './fixtures/seed-passage.ts';

// `brain start` hands a real Discord /ask over whole to the answering thread right after the
// acknowledgement: the entitlement and audience lookups, the answer and the edit of the deferred
// reply run there, so the acknowledging thread holds neither the backlog nor the edits' HTTP work.
// These prove the edit is sent from that thread (the acknowledging side's Discord client is never
// called for it), and that a thread that stops still leaves every reply edited.
const logger = createLogger({ level: 'silent' });
const APP = '100000000000000077';

/** The acknowledging thread's Discord client: it records, and answers as Discord would. */
function recordingApi(): DiscordApi & { edits: unknown[] } {
  const edits: unknown[] = [];
  const refuse = () => Promise.reject(new Error('not used here'));
  return {
    edits,
    editOriginal: (_app, _token, body) => {
      edits.push(body);
      return Promise.resolve({ id: '1' });
    },
    createFollowUp: (_app, _token, body) => {
      edits.push(body);
      return Promise.resolve({ id: '2' });
    },
    putCommands: refuse,
    getGuild: refuse,
    getGuildRoles: refuse,
    getGuildChannels: refuse,
    getChannel: refuse,
  };
}

describeDb('a real Discord /ask handed over whole to the answering thread', (suite) => {
  let fake: FakeDiscord;
  let workspaceId: string;
  const guildId = `4${Date.now()}`.slice(0, 18);
  const env = (): Record<string, string> => ({
    ...(suite.url ? { DATABASE_URL: suite.url } : { BRAIN_DATA_DIR: os.tmpdir() }),
    LOG_LEVEL: 'error',
    DISCORD_API_BASE: fake.apiBase,
  });
  const ask = (question: string, tokenPrefix: string) =>
    slashCommand({ applicationId: APP, guildId, tokenPrefix }, 'ask', [{ name: 'question', type: 3, value: question }]) as never;

  function surfaceOf(app: Composition, api: DiscordApi): DiscordSurface {
    const surface = createDiscordSurface({
      db: suite.db,
      logger,
      ask: app.answering(),
      checkEntitlement: app.entitlementCheck(),
      downloadAttachment: () => Promise.reject(new Error('no attachments here')),
      links: { install: () => 'https://brain.example.com/install', claim: () => 'https://brain.example.com/install' },
      discord: { publicKey: generateDevKeyPair().publicKeyHex, api },
      dedupe: suite.db.kind === 'pglite' ? 'process' : 'database',
      handOff: app.interactionHandOff(randomUUID())?.(suite.db.kind === 'pglite' ? 'process' : 'database'),
    });
    if (!surface) throw new Error('expected a Discord surface');
    return surface;
  }

  beforeAll(async () => {
    fake = await startFakeDiscord();
    workspaceId = await createWorkspace(suite.db, `handoff-${Date.now()}`, guildId);
    await withService(suite.db, (tx) => tx.query("update workspaces set claim_email = 'owner@example.com', claimed_at = now() where id = $1", [workspaceId]));
    await seedPassage(suite.db, workspaceId, 'Deploys', 'We deploy on Tuesdays and Thursdays after the release review.');
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('edits the deferred reply from the answering thread: the acknowledging thread’s Discord client is never called', async () => {
    const app = compose(loadConfig(env(), { cwd: process.cwd() }), suite.db, logger, { answeringThread: true });
    const mainApi = recordingApi();
    const surface = surfaceOf(app, mainApi);
    try {
      expect(await app.answeringThread?.ready).toBe(true);
      const interaction = ask('When do we deploy?', 'tok_handoff_');
      const ack = await surface.handle(interaction, 'discord', Date.now());
      expect(ack).toMatchObject({ type: 5 });
      const [edit] = await fake.waitForCalls((interaction as { token: string }).token, 1, 30_000);
      expect(edit?.kind).toBe('edit-original');
      expect(edit?.body).toMatchObject({ allowed_mentions: { parse: [] } });
      expect(JSON.stringify(edit?.body.embeds)).toContain('Tuesdays');
      expect(mainApi.edits).toEqual([]);
      expect(app.answeringThread?.counters).toMatchObject({ interactions: 1, inProcess: 0 });
      // Shutdown drains the work on the thread too.
      await surface.close(5_000);
    } finally {
      await app.close();
    }
  });

  it('a thread that stops: the interaction it held is edited here with ANSWER_THREAD_STOPPED, and later ones are done here', async () => {
    const app = compose(loadConfig(env(), { cwd: process.cwd() }), suite.db, logger, {
      answeringThread: { entry: new URL('./fixtures/answer-thread-that-dies.mjs', import.meta.url) },
    });
    const mainApi = recordingApi();
    const surface = surfaceOf(app, mainApi);
    try {
      expect(await app.answeringThread?.ready).toBe(true);
      await surface.handle(ask('When do we deploy?', 'tok_dies_'), 'discord', Date.now());
      await expect.poll(() => mainApi.edits.length, { timeout: 30_000 }).toBe(1);
      expect(mainApi.edits[0]).toMatchObject({ allowed_mentions: { parse: [] } });
      expect(JSON.stringify(mainApi.edits[0])).toContain('ANSWER_THREAD_STOPPED');
      await surface.handle(ask('When do we deploy?', 'tok_after_'), 'discord', Date.now());
      await expect.poll(() => mainApi.edits.length, { timeout: 30_000 }).toBe(2);
      expect(JSON.stringify(mainApi.edits[1])).toContain('Tuesdays');
      expect(app.answeringThread?.counters).toMatchObject({ interactions: 1, inProcess: 1 });
      expect(fake.calls.filter((c) => c.token.startsWith('tok_dies_') || c.token.startsWith('tok_after_'))).toEqual([]);
      await surface.close(5_000);
    } finally {
      await app.close();
    }
  });
}, { pgliteThread: true }); // the answering thread reaches the embedded database through its thread
