import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../src/services/ingest.ts';

const logger = createLogger({ level: 'silent' });

// The configuration `brain start` would have beside this suite's database: embedded with PGlite,
// PostgreSQL mode with DATABASE_URL. Both serve Discord's acknowledgements from the main thread.
describeDb('indexing runs on the ingestion thread', (suite) => {
  it('chunks and embeds a saved source off the main thread, in this database mode', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-threads-'));
    const config = loadConfig(suite.backend === 'postgres' ? { DATABASE_URL: suite.url } : { BRAIN_DATA_DIR: dataDir }, { cwd: process.cwd() });
    expect(config.mode).toBe(suite.backend === 'postgres' ? 'postgres' : 'embedded');
    const runtime = buildIngestRuntime(config, suite.db, logger);
    try {
      const [row] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('threads') returning id"));
      const saved = await saveSource(suite.db, { workspaceId: row?.id as string, input: { kind: 'text', text: '# Threads\n\nChunked and embedded elsewhere.' }, savedBy: 'test' }, runtime.saveOptions);
      const id = saved.artifacts[0]?.artifactId as string;
      expect(runtime.threads.started).toBe(0);
      const worker = await startWorker(runtime.services, { logger, artifactIds: [id] });
      await worker.idle();
      await worker.stop();
      const [chunk] = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from chunks where artifact_id = $1 and embedding is not null', [id]));
      expect(chunk?.n).toBeGreaterThan(0);
      expect(runtime.threads).toEqual({ started: 1, crashed: 0 });
    } finally {
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
