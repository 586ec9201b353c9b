import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { bombPdf, startFakeHttpServer, textPdf, type FakeHttpServer } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../src/services/ingest.ts';

const logger = createLogger({ level: 'silent' });

describeDb('hostile documents in the worker', (suite) => {
  let site: FakeHttpServer;
  beforeAll(async () => {
    site = await startFakeHttpServer('hostile-site');
    // 50 MB of HTML, streamed by a server that says nothing about its length up front.
    site.on('GET', '/huge', () => ({ headers: { 'content-type': 'text/html' }, body: Buffer.alloc(50 * 1024 * 1024, 'a') }));
  });
  afterAll(() => site.close());

  it('fails each hostile document with its reason code while the worker stays up and the others complete', { timeout: 600_000 }, async () => {
    const [row] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('hostile') returning id"));
    const ws = row?.id as string;
    const config = loadConfig({ BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { cwd: process.cwd() });
    const runtime = buildIngestRuntime(config, suite.db, logger);
    const save = async (input: Parameters<typeof saveSource>[1]['input']) =>
      (await saveSource(suite.db, { workspaceId: ws, input, savedBy: 'test' }, runtime.saveOptions)).artifacts[0]?.artifactId as string;

    const nested = `<html><body>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</body></html>`;
    const ids = {
      bomb: await save({ kind: 'file', bytes: await bombPdf(400 * 1024 * 1024), fileName: 'bomb.pdf', mimeType: 'application/pdf' }),
      nested: await save({ kind: 'file', bytes: Buffer.from(nested), fileName: 'nested.html', mimeType: 'text/html' }),
      huge: await save({ kind: 'url', url: `http://127.0.0.1:${site.port}/huge` }),
      good1: await save({ kind: 'file', bytes: textPdf({ title: 'Fine', pages: [['A perfectly normal page.']] }), fileName: 'fine.pdf', mimeType: 'application/pdf' }),
      good2: await save({ kind: 'text', text: '# Also fine\n\nNothing hostile here.' }),
    };
    const rssBefore = process.memoryUsage().rss;
    const worker = await startWorker(runtime.services, { logger, concurrency: 2, jobsPerWorkspace: 2, artifactIds: Object.values(ids) });
    await worker.idle();
    const rssAfter = process.memoryUsage().rss;

    const rows = await withService(suite.db, (tx) =>
      tx.query<{ id: string; status: string; error_code: string | null }>('select id, status, error_code from artifacts where id = any($1::uuid[])', [Object.values(ids)]),
    );
    const state = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, rows.find((r) => r.id === id)]));
    expect(state.bomb).toMatchObject({ status: 'failed', error_code: expect.stringMatching(/^EXTRACT_(TOO_LARGE|MEMORY_LIMIT|TIMEOUT)$/) });
    expect(state.nested).toMatchObject({ status: 'failed', error_code: 'EXTRACT_TOO_COMPLEX' });
    expect(state.huge).toMatchObject({ status: 'failed', error_code: 'FETCH_TOO_LARGE' });
    expect(state.good1).toMatchObject({ status: 'ready', error_code: null });
    expect(state.good2).toMatchObject({ status: 'ready', error_code: null });
    // The parsing happened in sandboxes; this process did not grow by the documents' size.
    expect(rssAfter - rssBefore).toBeLessThan(200 * 1024 * 1024);

    // Still up: a new job after all that completes.
    const later = await save({ kind: 'text', text: '# After the storm\n\nStill answering.' });
    const again = await startWorker(runtime.services, { logger, artifactIds: [later] });
    await again.idle();
    await again.stop();
    await worker.stop();
    await runtime.close();
    const [after] = await withService(suite.db, (tx) => tx.query<{ status: string }>('select status from artifacts where id = $1', [later]));
    expect(after?.status).toBe('ready');
  });
});
