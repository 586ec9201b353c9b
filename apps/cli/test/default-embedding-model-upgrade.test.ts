import { beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { compose } from '../src/compose.ts';
import { embeddingModelCheck } from '../src/doctor/checks/embedding-model.ts';
import { indexNow } from '../src/services/index-now.ts';
import { buildIngestRuntime } from '../src/services/ingest.ts';
import { withStoredEmbeddingModel } from '../src/services/stored-embedding-model.ts';

/**
 * The default local model moved from local-hash-v1 to local-hash-v2. A database indexed before
 * that, started again with EMBEDDING_MODEL still unset, must keep answering with v1 (not refuse
 * on a model mismatch), and the log and `brain doctor` say that `brain reembed` moves it.
 */
describeDb('an upgrade across the default embedding model', (suite) => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  const silent = createLogger({ level: 'silent' });
  const unset = () => loadConfig({}, { cwd: process.cwd() });

  beforeAll(async () => {
    expect(unset().embedding).toEqual({ provider: 'local', model: 'local-hash-v2', defaulted: true });
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('upgrade') returning id"));
    // Indexed by the old default, as an install from before the change was.
    const runtime = buildIngestRuntime(loadConfig({ EMBEDDING_MODEL: 'local-hash-v1' }, { cwd: process.cwd() }), suite.db, silent, createLocalEmbedder('local-hash-v1'));
    try {
      const saved = await saveSource(suite.db, { workspaceId: ws?.id as string, input: { kind: 'text', text: '# Deploys\n\nDeploys go out on Tuesdays after the freeze.' }, savedBy: 'test' });
      await indexNow(runtime, saved.artifacts.map((a) => a.artifactId), false, silent);
    } finally {
      await runtime.close();
    }
  }, 60_000);

  it('keeps local-hash-v1 while EMBEDDING_MODEL is unset, starts, and logs how to move', async () => {
    const config = await withStoredEmbeddingModel(unset(), suite.db, logger);
    expect(config.embedding.model).toBe('local-hash-v1');
    const app = compose(config, suite.db, silent);
    try {
      expect(app.embedder.model).toBe('local-hash-v1');
      await expect(app.checkStartup()).resolves.toBeUndefined();
    } finally {
      await app.close();
    }
    const warning = lines.map((l) => JSON.parse(l) as { msg: string; level: number }).find((l) => l.msg.includes('keeps that model'));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('new databases use local-hash-v2, and `brain reembed` moves this one to it');
  });

  it('says the same in brain doctor, as a pass', async () => {
    const result = await embeddingModelCheck.run({ env: {}, config: unset(), db: suite.db, schemaCurrent: true, logger: silent, timeoutMs: 1000 });
    expect(result.status).toBe('pass');
    expect(result.detail).toMatch(/passage\(s\), all local-hash-v1, kept because EMBEDDING_MODEL is unset; new databases use local-hash-v2, and `brain reembed` moves this one to it/);
  });

  it('follows EMBEDDING_MODEL when it names the new model: the startup check refuses until `brain reembed`', async () => {
    const config = await withStoredEmbeddingModel(loadConfig({ EMBEDDING_MODEL: 'local-hash-v2' }, { cwd: process.cwd() }), suite.db, silent);
    expect(config.embedding.model).toBe('local-hash-v2');
    const app = compose(config, suite.db, silent);
    try {
      await expect(app.checkStartup()).rejects.toThrow(/with local-hash-v1/);
    } finally {
      await app.close();
    }
  });
});
