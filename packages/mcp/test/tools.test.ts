import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { EVERYTHING, withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { AppError, type ErrorCode } from '@brain/errors';
import { call, connect, createWorkspace, mcpDeps, saveAndIndex, textOf } from '../src/testing/index.ts';

interface Passage {
  source_id: string;
  source_title: string;
  content: string;
  similarity: number;
  relevance: number;
  matched_by: string[];
  high_confidence: boolean;
  content_truncated: boolean;
}
interface Search {
  matched: boolean;
  passages: Passage[];
  omitted: number;
  note: string;
}
interface SourceView {
  id: string;
  status: string;
  forgotten: boolean;
  passages: number;
  saved_by: string;
  restorable_until: string | null;
}

const ROLLBACK = 'To roll back a release, redeploy the previous tag with the deploy button. Never revert commits on main to undo a release.';
const ONCALL = 'The on-call engineer cuts a release every second Tuesday, after the staging soak passes without alerts.';
const SECRET = 'Globex launch codes are rotated weekly; the launch code for the rollback drill is 7741.';

describeDb('MCP tools, in process', (suite) => {
  let a = '';
  let b = '';
  let rollbackId = '';
  let oncallId = '';
  let secretId = '';
  let client: Client;
  let clientB: Client;

  beforeAll(async () => {
    a = await createWorkspace(suite.db, 'acme');
    b = await createWorkspace(suite.db, 'globex');
    rollbackId = await saveAndIndex(suite.db, a, 'Release rollback', ROLLBACK);
    oncallId = await saveAndIndex(suite.db, a, 'Release schedule', ONCALL);
    secretId = await saveAndIndex(suite.db, b, 'Globex rollback drill', SECRET);
    client = await connect(mcpDeps(suite.db), { workspaceId: a, name: 'acme agent', audience: EVERYTHING });
    clientB = await connect(mcpDeps(suite.db), { workspaceId: b, name: 'globex agent', audience: EVERYTHING });
  });
  afterAll(async () => {
    await Promise.all([client.close(), clientB.close()]);
  });

  it('search_brain finds a saved and indexed passage, with its source, scores and confidence', async () => {
    const result = await call<Search>(client, 'search_brain', { query: 'how do I roll back a release?' });
    expect(result.isError).toBeUndefined();
    const top = result.structuredContent.passages[0];
    expect(result.structuredContent.matched).toBe(true);
    expect(top).toMatchObject({ source_id: rollbackId, source_title: 'Release rollback', content: expect.stringContaining('redeploy the previous tag') });
    expect(top?.matched_by).toEqual(['vector', 'keyword']);
    expect(top?.similarity).toBeGreaterThan(0.15);
    expect(top?.relevance).toBeGreaterThan(0);
    expect(top?.relevance).toBeLessThanOrEqual(1);
    // Ranked first by both retrievers: the best possible fused score, so relevance 1.
    expect(top?.relevance).toBe(1);
    expect(typeof top?.high_confidence).toBe('boolean');
    expect(textOf(result)).toContain('[1] Release rollback');
    expect(textOf(result)).toMatch(/Cite each passage/);
  });

  it('search_brain says explicitly when nothing matched, and not to answer from general knowledge', async () => {
    const empty = await createWorkspace(suite.db, 'empty');
    const c = await connect(mcpDeps(suite.db), { workspaceId: empty, name: 'empty', audience: EVERYTHING });
    const result = await call<Search>(c, 'search_brain', { query: 'how do I roll back a release?' });
    await c.close();
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ matched: false, passages: [], omitted: 0 });
    expect(result.structuredContent.note).toMatch(/^Nothing in this workspace's sources matched/);
    expect(textOf(result)).toContain('Do not answer from general knowledge');
  });

  it('search_brain refuses as /ask does when the query names something no saved passage holds, naming it', async () => {
    // The rollback passage is retrieved for this query (its other words match), but it says nothing about the flag.
    const named = await call<Search>(client, 'search_brain', { query: 'how do I roll back a release with skip_canary_gates?' });
    expect(named.isError).toBeUndefined();
    expect(named.structuredContent).toMatchObject({ matched: false, passages: [], omitted: 0 });
    expect(named.structuredContent.note).toMatch(/^Nothing saved in this workspace covers “skip_canary_gates”: /);
    expect(textOf(named)).toContain('Do not answer from general knowledge');
    const plain = await call<Search>(client, 'search_brain', { query: 'how do I roll back a release with the deploy button?' });
    expect(plain.structuredContent.matched).toBe(true);
    expect(plain.structuredContent.passages[0]?.source_id).toBe(rollbackId);
  });

  it('never shows one workspace another workspace’s sources', async () => {
    const search = await call<Search>(client, 'search_brain', { query: 'launch code for the rollback drill 7741', limit: 10 });
    expect(search.structuredContent.passages.map((p) => p.source_id)).not.toContain(secretId);
    expect(JSON.stringify(search.structuredContent.passages)).not.toContain('7741');
    const theirs = await call<Search>(clientB, 'search_brain', { query: 'launch code for the rollback drill 7741' });
    expect(theirs.structuredContent.passages[0]?.source_id).toBe(secretId);

    const get = await call(client, 'get_source', { id: secretId, include_forgotten: true });
    expect(get.isError).toBe(true);
    expect(textOf(get)).toMatch(/^Error SOURCE_NOT_FOUND: .*\nNext: .*list_sources/);

    const forget = await call(client, 'forget_source', { id: secretId });
    expect(forget.isError).toBe(true);
    expect(textOf(forget)).toContain('SOURCE_NOT_FOUND');
    const restore = await call(client, 'restore_source', { id: secretId });
    expect(restore.isError).toBe(true);
    const [row] = await withService(suite.db, (tx) => tx.query<{ forgotten_at: Date | null }>('select forgotten_at from artifacts where id = $1', [secretId]));
    expect(row?.forgotten_at).toBeNull();

    const list = await call<{ sources: SourceView[] }>(client, 'list_sources', { include_forgotten: true, limit: 50 });
    expect(list.structuredContent.sources.map((s) => s.id)).not.toContain(secretId);
  });

  it('forget → search misses it → get_source shows it only when asked → restore → search finds it again', async () => {
    const query = { query: 'redeploy the previous tag to roll back', limit: 10 };
    const forget = await call<{ passages_hidden: number; restorable_until: string; note: string }>(client, 'forget_source', { id: rollbackId });
    expect(forget.isError).toBeUndefined();
    expect(forget.structuredContent.passages_hidden).toBeGreaterThan(0);
    expect(Date.parse(forget.structuredContent.restorable_until) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(forget.structuredContent.note).toContain('restore_source');

    const missing = await call<Search>(client, 'search_brain', query);
    expect(missing.structuredContent.passages.map((p) => p.source_id)).not.toContain(rollbackId);

    const hidden = await call(client, 'get_source', { id: rollbackId });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/exists but is forgotten[\s\S]*Next: The source exists but is forgotten: call restore_source/);
    const shown = await call<{ source: SourceView }>(client, 'get_source', { id: rollbackId, include_forgotten: true });
    expect(shown.structuredContent.source).toMatchObject({ id: rollbackId, forgotten: true, status: 'ready' });
    expect(shown.structuredContent.source.restorable_until).not.toBeNull();
    const listed = await call<{ sources: SourceView[] }>(client, 'list_sources', {});
    expect(listed.structuredContent.sources.map((s) => s.id)).not.toContain(rollbackId);

    const again = await call<{ passages_hidden: number }>(client, 'forget_source', { id: rollbackId });
    expect(again.isError).toBeUndefined();

    const restored = await call<{ restored: boolean; passages_live: number }>(client, 'restore_source', { id: rollbackId });
    expect(restored.structuredContent).toMatchObject({ restored: true });
    expect(restored.structuredContent.passages_live).toBeGreaterThan(0);
    const twice = await call<{ restored: boolean }>(client, 'restore_source', { id: rollbackId });
    expect(twice.isError).toBeUndefined();
    expect(twice.structuredContent.restored).toBe(false);

    const found = await call<Search>(client, 'search_brain', query);
    expect(found.structuredContent.passages[0]?.source_id).toBe(rollbackId);
  });

  it('list_sources pages with a cursor and filters by status', async () => {
    const first = await call<{ sources: SourceView[]; total: number; next_cursor: string | null }>(client, 'list_sources', { limit: 1 });
    expect(first.structuredContent.total).toBe(2);
    expect(first.structuredContent.sources).toHaveLength(1);
    expect(first.structuredContent.next_cursor).not.toBeNull();
    const second = await call<{ sources: SourceView[]; next_cursor: string | null }>(client, 'list_sources', { limit: 1, cursor: first.structuredContent.next_cursor });
    expect(second.structuredContent.next_cursor).toBeNull();
    expect([first, second].map((p) => p.structuredContent.sources[0]?.id).sort()).toEqual([rollbackId, oncallId].sort());
    const failed = await call<{ sources: SourceView[]; total: number }>(client, 'list_sources', { status: 'failed' });
    expect(failed.structuredContent.total).toBe(0);
    expect(failed.structuredContent.sources).toEqual([]);
    const bad = await call(client, 'list_sources', { cursor: 'not-a-cursor' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('without cursor');
  });

  it('save_source saves text and URLs idempotently, queues indexing, and records the token as the saver', async () => {
    const first = await call<{ source: SourceView; created: boolean; note: string }>(client, 'save_source', { url: 'https://docs.example.com/deploy', title: 'Deploy guide' });
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent).toMatchObject({ created: true, source: { status: 'queued', saved_by: 'mcp:acme agent' } });
    expect(first.structuredContent.note).toContain('get_source');
    const second = await call<{ source: SourceView; created: boolean }>(client, 'save_source', { url: 'https://docs.example.com/deploy' });
    expect(second.structuredContent).toMatchObject({ created: false, source: { id: first.structuredContent.source.id } });
    const jobs = await withService(suite.db, (tx) => tx.query('select id from jobs where artifact_id = $1', [first.structuredContent.source.id]));
    expect(jobs).toHaveLength(1);

    const text = await call<{ source: SourceView }>(client, 'save_source', { text: 'Standup is at 9:30 every weekday.', title: 'Standup' });
    expect(text.structuredContent.source).toMatchObject({ status: 'queued', forgotten: false });

    const both = await call(client, 'save_source', { url: 'https://docs.example.com/a', text: 'x' });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('exactly one of url or text');
    const none = await call(client, 'save_source', {});
    expect(none.isError).toBe(true);
  });

  it('save_source refuses what the fetcher would refuse, before anything is written', async () => {
    const blocked = new AppError({ code: 'FETCH_BLOCKED_ADDRESS' as ErrorCode, message: 'blocked', userMessage: 'That address is not allowed.', nextStep: 'Save a public page.', httpStatus: 400 });
    const c = await connect(mcpDeps(suite.db, { saveOptions: { checkUrl: () => Promise.reject(blocked) } }), { workspaceId: a, name: 'strict', audience: EVERYTHING });
    const result = await call(c, 'save_source', { url: 'http://169.254.169.254/latest/meta-data/' });
    await c.close();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Error FETCH_BLOCKED_ADDRESS: That address is not allowed.\nNext: Save a public page.');
    const rows = await withService(suite.db, (tx) => tx.query("select id from artifacts where url like 'http://169.254%'"));
    expect(rows).toHaveLength(0);
  });

  it('invalid arguments are isError results with a stable code, not protocol failures', async () => {
    const tooMany = await call(client, 'search_brain', { query: 'release', limit: 11 });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/^Error INVALID_ARGUMENTS: .*limit/);
    const status = await call(client, 'list_sources', { status: 'deleted' });
    expect(status.isError).toBe(true);
    const notAnId = await call(client, 'get_source', { id: 'nope' });
    expect(textOf(notAnId)).toContain('SOURCE_NOT_FOUND');
  });

  it('cuts results to the character budget and says so', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `Release checklist item ${i}: verify the deploy of the release candidate on staging before the release.`).join('\n\n');
    await saveAndIndex(suite.db, a, 'Release checklist', long);
    const small = await connect(mcpDeps(suite.db, { budgetChars: 1_500 }), { workspaceId: a, name: 'small', audience: EVERYTHING });
    const cut = await call<Search>(small, 'search_brain', { query: 'release checklist deploy staging', limit: 10 });
    expect(cut.structuredContent.omitted).toBeGreaterThan(0);
    expect(cut.structuredContent.note).toMatch(/more passage\(s\) were cut to stay within the 1500-character budget/);
    expect(JSON.stringify(cut.structuredContent.passages).length).toBeLessThanOrEqual(1_500);
    // The budget is spent on both blocks together: what a client that shows both hands the model.
    const mid = await connect(mcpDeps(suite.db, { budgetChars: 4_000 }), { workspaceId: a, name: 'mid', audience: EVERYTHING });
    const both = await call<Search>(mid, 'search_brain', { query: 'release checklist deploy staging', limit: 10 });
    expect(both.structuredContent.omitted).toBeGreaterThan(0);
    expect(JSON.stringify(both.structuredContent).length + textOf(both).length).toBeLessThanOrEqual(4_000);
    const listedMid = await call<{ sources: SourceView[] }>(mid, 'list_sources', { limit: 50 });
    expect(JSON.stringify(listedMid.structuredContent).length + textOf(listedMid).length).toBeLessThanOrEqual(4_000);
    await mid.close();

    const tiny = await connect(mcpDeps(suite.db, { budgetChars: 300 }), { workspaceId: a, name: 'tiny', audience: EVERYTHING });
    const shortened = await call<Search>(tiny, 'search_brain', { query: 'release checklist deploy staging', limit: 3 });
    expect(shortened.structuredContent.passages).toHaveLength(1);
    expect(shortened.structuredContent.passages[0]?.content_truncated).toBe(true);
    expect(shortened.structuredContent.passages[0]?.content.endsWith('…')).toBe(true);
    expect(shortened.structuredContent.note).toContain('shortened');

    const listed = await call<{ sources: SourceView[]; next_cursor: string | null; total: number; note: string }>(tiny, 'list_sources', { limit: 10 });
    expect(listed.structuredContent.sources.length).toBeLessThan(listed.structuredContent.total);
    expect(listed.structuredContent.note).toContain('cut to stay within the 300-character budget');
    const rest = await call<{ sources: SourceView[] }>(client, 'list_sources', { limit: 50, cursor: listed.structuredContent.next_cursor });
    expect(listed.structuredContent.sources.length + rest.structuredContent.sources.length).toBe(listed.structuredContent.total);
    await Promise.all([small.close(), tiny.close()]);
  });
});
