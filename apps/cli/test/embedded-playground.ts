import fs from 'node:fs';
import { ask, createExtractiveAnswerer } from '@brain/answer';
import { loadConfig } from '@brain/config';
import { migrate, openDatabase, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { reserveLoopbackPort } from '@brain/testkit';
import { startWebServer, type WebServer } from '@brain/web';
import { compose } from '../src/compose.ts';
import { wireDiscord } from '../src/discord-wiring.ts';
import { runWorker } from '../src/services/run-worker.ts';
import { resolveWorkspace } from '../src/workspace.ts';
import { templateDataDir } from './brain-process.ts';

export interface EmbeddedPlayground {
  web: WebServer;
  db: Database;
  close(): Promise<void>;
}

/**
 * `brain start`'s embedded composition in this process, in start's order: no Discord keys and no
 * bot token, so the playground and its pretend server are all there is; the real worker runs jobs.
 */
export async function startEmbeddedPlayground(prefix: string): Promise<EmbeddedPlayground> {
  const reserved = await reserveLoopbackPort();
  const port = reserved.port;
  const dataDir = await templateDataDir(prefix);
  const config = loadConfig({ BRAIN_DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, { cwd: process.cwd() });
  if (config.discord.botToken || !config.playground.enabled) throw new Error('expected the playground on and no bot token');
  const logger = createLogger({ level: 'warn' });
  const db = await openDatabase(config.database, { command: 'e2e' });
  await migrate(db);
  const local = await resolveWorkspace(db, undefined);
  const app = compose(config, db, logger);
  const embedder = app.embedder;
  const discord = await wireDiscord({ config, db, logger, localWorkspaceId: local.id, ask: (input) => ask({ db, embedder, answerer: createExtractiveAnswerer(), logger }, input) });
  const worker = await runWorker(app, undefined, discord.pretendHistory);
  await reserved.release();
  const web = await startWebServer({ config, db, logger, discord: discord.surface, playground: discord.playground }, { host: '127.0.0.1', port });
  return {
    web,
    db,
    async close() {
      await web.close();
      await worker.stop();
      await discord.close();
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
