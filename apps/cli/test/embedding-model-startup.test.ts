import { beforeAll, expect, it } from 'vitest';
import { createMcpToken } from '@brain/accounts';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describePostgres } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { compose } from '../src/compose.ts';
import { indexNow } from '../src/services/index-now.ts';
import { spawnBrain } from './brain-process.ts';
import { runCli } from './run-cli.ts';

const logger = createLogger({ level: 'silent' });
const METRICS_TOKEN = 'm'.repeat(24);

/**
 * The services that only answer (the web service of `brain start --no-worker`, and `brain mcp`
 * with a token) once skipped the embedding-model check, which ran on the worker's path only, and
 * so compared query vectors of one model with stored vectors of another. Only PostgreSQL mode
 * has such services: embedded, the worker always runs in-process.
 */
describePostgres('a service that answers refuses to start on another model’s passages', (suite) => {
  let token = '';
  const env = () => ({ DATABASE_URL: suite.url as string, BRAIN_METRICS_TOKEN: METRICS_TOKEN });

  beforeAll(async () => {
    const config = loadConfig(env(), { cwd: process.cwd() });
    expect(config.embedding.model).toBe('local-hash-v2');
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('models') returning id"));
    const workspaceId = ws?.id as string;
    const app = compose(config, suite.db, logger);
    try {
      const saved = await saveSource(suite.db, { workspaceId, input: { kind: 'text', text: '# Deploys\n\nDeploys go out on Tuesdays after the freeze.' }, savedBy: 'test' });
      await indexNow(app.ingest(), saved.artifacts.map((a) => a.artifactId), false, logger);
    } finally {
      await app.close();
    }
    // As if these passages had been embedded before EMBEDDING_MODEL changed.
    const [moved] = await withService(suite.db, (tx) =>
      tx.query<{ n: number }>("with u as (update chunks set embedding_model = 'text-embedding-3-small' where embedding is not null returning 1) select count(*)::int as n from u"),
    );
    expect(moved?.n).toBeGreaterThan(0);
    token = (await createMcpToken(suite.db, workspaceId, 'agent', 'test')).token;
  }, 120_000);

  it('brain start --no-worker exits 1 naming both models and the re-embed step, before it listens', { timeout: 240_000 }, async () => {
    const brain = spawnBrain(['start', '--no-worker', '--port', '0'], env());
    try {
      await brain.waitForOutput(/Company Brain is running|error: /);
      expect(brain.output()).not.toMatch(/Company Brain is running/);
      const { code } = await brain.exited;
      const output = brain.output();
      expect(code).toBe(1);
      expect(output).toMatch(/error: The database holds passages embedded with another model than the configured one \(local-hash-v2\): \d+ with text-embedding-3-small/);
      expect(output).toMatch(/next: Run `brain reembed` to re-embed every passage with local-hash-v2/);
    } finally {
      brain.kill();
    }
  });

  it('brain mcp with a token exits 1 with the same reason on stderr, before serving a tool', { timeout: 240_000 }, async () => {
    const result = await runCli(['mcp'], { DATABASE_URL: suite.url as string, BRAIN_MCP_TOKEN: token });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/error: The database holds passages embedded with another model than the configured one \(local-hash-v2\)/);
    expect(result.stderr).toMatch(/next: Run `brain reembed` to re-embed every passage with local-hash-v2/);
  });
});
