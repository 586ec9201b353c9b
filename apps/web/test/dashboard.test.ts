import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpToken, startDashboardSession } from '@brain/accounts';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { insertQuestions, insertSources, type SeededSource } from '@brain/insights/testing';
import { browserFor, claimedWorkspace, csrfOf, logIn, type Browser } from './dashboard-harness.ts';
import { hidden, startHarness, type Harness } from './onboarding-harness.ts';

const HOUR = 3_600_000;

describeDb('the operator dashboard', (suite) => {
  let h: Harness;
  let a: string;
  let b: string;
  let aSources: SeededSource[];
  let bSource: SeededSource;
  let aQuestions: string[];
  let bQuestions: string[];
  let owner: Browser;

  beforeAll(async () => {
    h = await startHarness(suite.db);
    a = await claimedWorkspace(suite.db, 'ateam', 'ana@example.com');
    b = await claimedWorkspace(suite.db, 'bteam', 'bo@example.com');
    aSources = await insertSources(suite.db, a, [
      { title: 'Alpha handbook', url: 'https://example.com/alpha', passages: 2 },
      { title: 'Broken page', url: 'https://example.com/broken', status: 'failed', errorCode: 'FETCH_TIMEOUT', errorMessage: 'The page took too long.' },
    ]);
    [bSource] = (await insertSources(suite.db, b, [{ title: 'Bravo secret plans', passages: 3 }])) as [SeededSource];
    const alpha = aSources[0] as SeededSource;
    const hit = (s: SeededSource, similarity: number) => ({ chunk_id: s.chunkIds[0] as string, artifact_id: s.artifactId, similarity, rank: 1 });
    aQuestions = await insertQuestions(suite.db, a, [
      { question: 'Where is the alpha handbook?', grounded: true, retrieved: [hit(alpha, 0.82)], cited: [{ n: 1, ...hit(alpha, 0.82) }], latency: { embed: 10, search: 20, generate: 100, total: 131 }, feedback: 'up', createdAt: new Date(Date.now() - HOUR) },
      { question: 'What about the moon?', grounded: false, retrieved: [], latency: { embed: 20, search: 10, total: 31 }, createdAt: new Date(Date.now() - 2 * HOUR) },
      { question: 'Who wrote alpha?', grounded: true, retrieved: [hit(alpha, 0.41)], cited: [{ n: 1, ...hit(alpha, 0.41) }], latency: { embed: 10, search: 30, generate: 200, total: 241 }, feedback: 'down', createdAt: new Date(Date.now() - 3 * HOUR) },
    ]);
    bQuestions = await insertQuestions(suite.db, b, [
      { question: 'Bravo confidential question', grounded: true, retrieved: [hit(bSource, 0.95)], cited: [{ n: 1, ...hit(bSource, 0.95) }], latency: { total: 5 }, feedback: 'up' },
    ]);
    owner = browserFor(h);
    await logIn(h, owner, 'ana@example.com', 'ateam');
  });
  afterAll(() => h.close());

  it('logs in by a magic link to the claimed address, with an HttpOnly, SameSite=Lax, Secure cookie scoped to /dashboard', async () => {
    const fresh = browserFor(h);
    const cookie = await logIn(h, fresh, 'ana@example.com', 'ateam');
    expect(cookie).toMatch(/^brain_dashboard=[A-Za-z0-9_-]{43}; Path=\/dashboard; Max-Age=604800; HttpOnly; SameSite=Lax; Secure$/);
    // The link worked once.
    const used = await fresh.get([...h.outbox.entries()].find((e) => e.purpose === 'login')?.url.replace(h.config.publicUrl, '') ?? '');
    expect(used.statusCode).toBe(409);
    // An address that owns nothing gets the same answer and no link.
    const before = h.outbox.entries().length;
    const form = await fresh.get('/login');
    expect((await fresh.post('/login', { email: 'nobody@example.com', csrf: hidden(form.body, 'csrf') })).headers.location).toBe('/login/sent');
    await h.drain();
    expect(h.outbox.entries()).toHaveLength(before);
  });

  it('shows the overview figures of the session\'s workspace, with the three charts as inline SVG', async () => {
    const res = await owner.get('/dashboard?days=7');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).not.toContain('<script');
    const card = (id: string) => new RegExp(`id="${id}"><div class="n">([^<]*)</div>`).exec(res.body)?.[1];
    expect(card('fig-sources-ready')).toBe('1');
    expect(card('fig-passages')).toBe('2');
    expect(card('fig-questions-week')).toBe('3');
    expect(card('fig-unanswered-rate')).toBe('33 %');
    expect(card('fig-votes')).toBe('50 %');
    for (const id of ['chart-similarity', 'chart-unanswered', 'chart-latency']) expect(res.body).toContain(`<figure id="${id}">`);
    expect(res.body).toContain('data-from="0.80" data-retrieved="1" data-cited="1"');
    expect(res.body).toContain('data-stage="total" data-p50="131"');
    expect(res.body).not.toContain('Bravo');
  });

  it('lists questions with their passages, similarities, latency and feedback, and filters the unanswered', async () => {
    const all = await owner.get('/dashboard/questions');
    expect(all.body).toContain('3 questions');
    expect(all.body).toContain('Alpha handbook');
    expect(all.body).toContain('similarity 0.820 · <b>cited</b>');
    expect(all.body).toContain('embed 10 ms · search 20 ms · generate 100 ms · total 131 ms');
    expect(all.body).toContain('👍');
    const unanswered = await owner.get('/dashboard/questions?filter=unanswered');
    expect(unanswered.body).toContain('1 question<');
    expect(unanswered.body).toContain('What about the moon?');
    expect(unanswered.body).not.toContain('Where is the alpha handbook?');
    const one = await owner.get(`/dashboard/questions/${aQuestions[0]}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Passage 0 of Alpha handbook.');
  });

  it('never shows another workspace\'s data, and refuses to act on its ids', async () => {
    for (const url of ['/dashboard', '/dashboard?days=90', '/dashboard/questions', '/dashboard/sources', '/dashboard/settings']) {
      const res = await owner.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('Bravo');
    }
    expect((await owner.get(`/dashboard/questions/${bQuestions[0]}`)).statusCode).toBe(404);
    const sources = await owner.get('/dashboard/sources');
    const csrf = csrfOf(sources.body, '/dashboard/sources/');
    for (const action of ['forget', 'reindex']) {
      expect((await owner.post(`/dashboard/sources/${bSource.artifactId}/${action}`, { csrf })).statusCode).toBe(404);
    }
    const { summary } = await createMcpToken(suite.db, b, 'bravo agent', 'bo@example.com');
    const settings = await owner.get('/dashboard/settings');
    expect((await owner.post(`/dashboard/tokens/${summary.id}/revoke`, { csrf: csrfOf(settings.body, '/dashboard/tokens') })).statusCode).toBe(404);
    const [bRow] = await withService(suite.db, (tx) =>
      tx.query<{ forgotten: boolean; jobs: number; revoked: boolean }>(
        `select (select forgotten_at is not null from artifacts where id = $1) as forgotten,
                (select count(*)::int from jobs where artifact_id = $1) as jobs,
                (select revoked_at is not null from mcp_tokens where id = $2) as revoked`,
        [bSource.artifactId, summary.id],
      ),
    );
    expect(bRow).toEqual({ forgotten: false, jobs: 0, revoked: false });
  });

  it('refuses a forged, an expired and a logged-out session, and posts without this session\'s CSRF token', async () => {
    const forged = browserFor(h);
    forged.jar.cookies.set('brain_dashboard', 'x'.repeat(43));
    const res = await forged.get('/dashboard');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?ended=1');
    expect(forged.jar.cookies.has('brain_dashboard')).toBe(false);
    const none = await browserFor(h).get('/dashboard/questions');
    expect([none.statusCode, none.headers.location]).toEqual([303, '/login']);

    // Sessions as a login starts them (the per-address link limit allows three links in 15 minutes).
    const sessionFor = async () => {
      const br = browserFor(h);
      br.jar.cookies.set('brain_dashboard', (await startDashboardSession(suite.db, { workspaceId: a, email: 'ana@example.com' })).token);
      return br;
    };
    const stale = await sessionFor();
    expect((await stale.get('/dashboard')).statusCode).toBe(200);
    const staleHash = createHash('sha256').update(stale.jar.cookies.get('brain_dashboard') ?? '').digest('hex');
    const aged = await withService(suite.db, (tx) =>
      tx.query(`update dashboard_sessions set created_at = now() - interval '8 days', expires_at = now() - interval '1 day' where token_hash = $1 returning 1`, [staleHash]),
    );
    expect(aged).toHaveLength(1);
    const expired = await stale.get('/dashboard');
    expect(expired.headers.location).toBe('/login?ended=1');

    const leaving = await sessionFor();
    const token = leaving.jar.cookies.get('brain_dashboard') ?? '';
    const page = await leaving.get('/dashboard');
    expect((await leaving.post('/dashboard/logout', { csrf: csrfOf(page.body, '/dashboard/logout') })).headers.location).toBe('/login');
    const replay = browserFor(h);
    replay.jar.cookies.set('brain_dashboard', token);
    expect((await replay.get('/dashboard')).headers.location).toBe('/login?ended=1');

    // A CSRF token of another session (or none) is refused, and nothing changes.
    const otherSettings = await browserFor(h).get('/login');
    const ownSettings = await owner.get('/dashboard/settings?match_count=3&min_similarity=0.9');
    expect(csrfOf(ownSettings.body, '/dashboard/settings')).not.toBe('');
    for (const csrf of ['', hidden(otherSettings.body, 'csrf'), csrfOf(page.body, '/dashboard/logout'), csrfOf(ownSettings.body, '/dashboard/tokens')]) {
      const post = await owner.post('/dashboard/settings', { csrf, match_count: '3', min_similarity: '0.9' });
      expect(post.statusCode).toBe(403);
    }
    const [ws] = await withService(suite.db, (tx) => tx.query<{ match_count: number }>('select match_count from workspaces where id = $1', [a]));
    expect(ws?.match_count).not.toBe(3);
  });

  it('previews a settings change over recent questions, then saves it; invalid values are refused with words', async () => {
    const preview = await owner.get('/dashboard/settings?match_count=5&min_similarity=0.5');
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toMatch(/<b>1<\/b> of 2 answered questions would lose every passage they cited/);
    const saved = await owner.post('/dashboard/settings', { csrf: csrfOf(preview.body, '/dashboard/settings'), match_count: '5', min_similarity: '0.5' });
    expect(saved.headers.location).toBe('/dashboard/settings?done=saved');
    const [ws] = await withService(suite.db, (tx) => tx.query<{ match_count: number; min_similarity: number }>('select match_count, min_similarity from workspaces where id = $1', [a]));
    expect({ k: ws?.match_count, s: Number(ws?.min_similarity) }).toEqual({ k: 5, s: 0.5 });
    const bad = await owner.post('/dashboard/settings', { csrf: csrfOf(preview.body, '/dashboard/settings'), match_count: '99', min_similarity: '0.5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Passages per answer must be a whole number from 1 to 20.');
  });

  it('forgets, restores and re-indexes a source', async () => {
    const alpha = aSources[0] as SeededSource;
    const broken = aSources[1] as SeededSource;
    const page = await owner.get('/dashboard/sources');
    expect(page.body).toContain('FETCH_TIMEOUT: The page took too long.');
    const csrf = csrfOf(page.body, '/dashboard/sources/');
    expect((await owner.post(`/dashboard/sources/${alpha.artifactId}/forget`, { csrf })).headers.location).toBe('/dashboard/sources?done=forgotten');
    const live = () => withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from chunks where artifact_id = $1 and is_live', [alpha.artifactId]));
    expect((await live())[0]?.n).toBe(0);
    expect((await owner.get('/dashboard/sources')).body).toContain(`data-source-id="${alpha.artifactId}" data-status="forgotten"`);
    expect((await owner.post(`/dashboard/sources/${alpha.artifactId}/restore`, { csrf })).headers.location).toBe('/dashboard/sources?done=restored');
    expect((await live())[0]?.n).toBe(2);
    expect((await owner.post(`/dashboard/sources/${broken.artifactId}/reindex`, { csrf })).headers.location).toBe('/dashboard/sources?done=reindexing');
    const [row] = await withService(suite.db, (tx) => tx.query<{ status: string }>('select status from artifacts where id = $1', [broken.artifactId]));
    expect(row?.status).toBe('queued');
  });

  it('creates an MCP token shown once, and revokes it', async () => {
    const page = await owner.get('/dashboard/settings');
    const created = await owner.post('/dashboard/tokens', { csrf: csrfOf(page.body, '/dashboard/tokens'), name: 'Claude desktop' });
    expect(created.statusCode).toBe(201);
    const token = /<code class="secret">([^<]+)<\/code>/.exec(created.body)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(30);
    const again = await owner.get('/dashboard/settings');
    expect(again.body).toContain('Claude desktop');
    expect(again.body).not.toContain(token);
    const id = /data-token-id="([0-9a-f-]{36})"><td>Claude desktop/.exec(again.body)?.[1] ?? '';
    expect((await owner.post(`/dashboard/tokens/${id}/revoke`, { csrf: csrfOf(again.body, '/dashboard/tokens/') })).headers.location).toBe('/dashboard/settings?done=revoked#mcp-tokens');
    const [row] = await withService(suite.db, (tx) => tx.query<{ revoked: boolean }>('select revoked_at is not null as revoked from mcp_tokens where id = $1', [id]));
    expect(row?.revoked).toBe(true);
  });
});
