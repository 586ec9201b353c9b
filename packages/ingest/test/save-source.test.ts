import { beforeAll, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { saveSource } from '../src/index.ts';
import { createWorkspace, jobsFor } from './helpers.ts';

describeDb('saveSource', (suite) => {
  let ws = '';
  let other = '';
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'save-a');
    other = await createWorkspace(suite.db, 'save-b');
  });

  it('writes the artifact and its job together, and saving the same URL again refreshes instead of duplicating', async () => {
    const first = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://Docs.Example.com:443/guide?utm_source=x#intro' }, savedBy: 'u1' });
    const [a] = first.artifacts;
    expect(a).toMatchObject({ kind: 'url', created: true, status: 'queued', url: 'https://docs.example.com/guide' });
    expect(await jobsFor(suite.db, a?.artifactId as string)).toEqual([{ task: 'ingest', status: 'queued', payload: { reason: 'save' } }]);

    const again = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://docs.example.com/guide', title: 'The guide' }, savedBy: 'u2' });
    expect(again.artifacts[0]).toMatchObject({ artifactId: a?.artifactId, created: false, title: 'The guide' });
    // The first job is still pending, so no second one is queued.
    expect(await jobsFor(suite.db, a?.artifactId as string)).toHaveLength(1);

    const count = await withWorkspace(suite.db, ws, (tx) => tx.query<{ n: number }>("select count(*)::int as n from artifacts where source_key like 'https://docs.example.com/guide%'"));
    expect(count[0]?.n).toBe(1);
  });

  it('queues a refresh when a saved source is saved again after its job finished', async () => {
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://example.com/refresh' }, savedBy: 'u1' });
    const id = artifacts[0]?.artifactId as string;
    await withService(suite.db, (tx) => tx.query("update jobs set status = 'done', finished_at = now() where artifact_id = $1", [id]));
    await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://example.com/refresh' }, savedBy: 'u1' });
    expect((await jobsFor(suite.db, id)).map((j) => `${j.status}:${j.payload.reason}`)).toEqual(['done:save', 'queued:resave']);
  });

  it('stores pasted text and uploaded files so the worker can index them, titled sensibly', async () => {
    const text = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: '# Onboarding checklist\n\n1. Get a badge.' }, savedBy: 'u1' });
    expect(text.artifacts[0]).toMatchObject({ kind: 'text', title: 'Onboarding checklist' });
    const pdf = Buffer.from('%PDF-1.4 fake but stored as bytes');
    const file = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'file', bytes: pdf, fileName: 'handbook.pdf', mimeType: 'application/octet-stream' }, savedBy: 'u1' });
    // A file's title comes from the document itself once extracted (lists fall back to its name).
    expect(file.artifacts[0]).toMatchObject({ kind: 'file', title: null });
    const stored = await withWorkspace(suite.db, ws, (tx) =>
      tx.query<{ mime_type: string; body: Uint8Array | null; body_text: string | null }>(
        'select mime_type, body, body_text from artifact_sources where artifact_id = any($1::uuid[]) order by mime_type',
        [[text.artifacts[0]?.artifactId, file.artifacts[0]?.artifactId]],
      ),
    );
    expect(stored.map((s) => s.mime_type)).toEqual(['application/pdf', 'text/markdown']);
    expect(Buffer.from(stored[0]?.body as Uint8Array).equals(pdf)).toBe(true);
    expect(stored[1]?.body_text).toContain('Get a badge');
  });

  it('treats an edited file with the same identity as the same source, and identical bytes without one as one source', async () => {
    const a = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'file', bytes: Buffer.from('# v1'), fileName: 'doc.md', mimeType: 'text/markdown', identity: '/docs/doc.md' }, savedBy: 'cli' });
    const b = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'file', bytes: Buffer.from('# v2'), fileName: 'doc.md', mimeType: 'text/markdown', identity: '/docs/doc.md' }, savedBy: 'cli' });
    expect(b.artifacts[0]).toMatchObject({ artifactId: a.artifacts[0]?.artifactId, created: false });
    const c = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'file', bytes: Buffer.from('same bytes'), fileName: 'x.txt', mimeType: 'text/plain' }, savedBy: 'u' });
    const d = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'file', bytes: Buffer.from('same bytes'), fileName: 'y.txt', mimeType: 'text/plain' }, savedBy: 'u' });
    expect(d.artifacts[0]?.artifactId).toBe(c.artifacts[0]?.artifactId);
  });

  it('saves a Discord message with its readable attachments, citing the jump link, and says what it skipped', async () => {
    const jumpUrl = 'https://discord.com/channels/1/2/3';
    const result = await saveSource(suite.db, {
      workspaceId: ws,
      input: {
        kind: 'discord_message',
        guildId: '1',
        channelId: '2',
        messageId: '3',
        content: 'Deploys happen on Tuesdays <@&999>',
        author: 'ada',
        jumpUrl,
        attachments: [
          { id: '10', url: 'https://cdn.discordapp.com/a/10/runbook.pdf', fileName: 'runbook.pdf', mimeType: 'application/pdf', size: 1000 },
          { id: '11', url: 'https://cdn.discordapp.com/a/11/cat.png', fileName: 'cat.png', mimeType: 'image/png', size: 1000 },
        ],
      },
      savedBy: 'u1',
    });
    expect(result.artifacts.map((a) => [a.kind, a.title, a.url])).toEqual([
      ['discord_message', 'Message from ada', jumpUrl],
      ['file', 'runbook.pdf', jumpUrl],
    ]);
    expect(result.skipped).toEqual([{ fileName: 'cat.png', reason: 'not a PDF, HTML, Markdown or text file' }]);
  });

  it('saves a Discord thread as one source keyed by the thread, where it came from in its metadata, attachments as linked sources', async () => {
    const message = (id: string, content: string, attachments: { id: string; url: string; fileName: string; mimeType: string; size: number }[] = []) => ({
      id, channelId: '20', author: 'Ada', at: '2026-11-30T10:00:00.000Z', content, url: `https://discord.com/channels/1/20/${id}`, replyTo: null, attachments,
    });
    const input = {
      kind: 'discord_thread' as const,
      guildId: '1',
      threadId: '20',
      parentId: '5',
      private: true,
      name: 'Deploy help',
      messages: [message('20', 'How do we deploy?'), message('21', '', [{ id: '9', url: 'https://cdn.discordapp.com/a/9/runbook.pdf', fileName: 'runbook.pdf', mimeType: 'application/pdf', size: 10 }]), message('22', '')],
    };
    const first = await saveSource(suite.db, { workspaceId: ws, input, savedBy: 'u1' });
    expect(first.artifacts.map((a) => [a.kind, a.sourceKey, a.title, a.url])).toEqual([
      ['discord_thread', 'discord-thread:1/20', 'Deploy help', 'https://discord.com/channels/1/20'],
      ['file', 'discord:1/20/21/attachments/9', 'runbook.pdf', 'https://discord.com/channels/1/20/21'],
    ]);
    const [row] = await withWorkspace(suite.db, ws, (tx) =>
      tx.query<{ metadata: Record<string, unknown>; body_text: string }>('select a.metadata, s.body_text from artifacts a join artifact_sources s on s.artifact_id = a.id where a.id = $1', [first.artifacts[0]?.artifactId]),
    );
    // Message 22 has nothing to save and is left out.
    expect(row?.metadata).toEqual({ guild_id: '1', channel_id: '20', thread_id: '20', parent_channel_id: '5', private: true, message_ids: ['20', '21'], message_count: 2 });
    expect(JSON.parse(row?.body_text ?? '{}')).toMatchObject({ version: 1, messages: [{ id: '20', content: 'How do we deploy?' }, { id: '21', attachments: ['runbook.pdf'] }] });

    const again = await saveSource(suite.db, { workspaceId: ws, input: { ...input, name: 'Deploy help (solved)' }, savedBy: 'u2' });
    expect(again.artifacts[0]).toMatchObject({ artifactId: first.artifacts[0]?.artifactId, created: false, title: 'Deploy help (solved)' });
    const empty = await saveSource(suite.db, { workspaceId: ws, input: { ...input, threadId: '30', messages: [message('30', '  ')] }, savedBy: 'u1' }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: 'SAVE_EMPTY' });
  });

  it('refuses bad input with a reason and a next step, and writes nothing', async () => {
    const cases = [
      { kind: 'url' as const, url: 'file:///etc/passwd' },
      { kind: 'url' as const, url: 'not a url' },
      { kind: 'text' as const, text: '   ' },
      { kind: 'file' as const, bytes: Buffer.alloc(0), fileName: 'empty.pdf', mimeType: 'application/pdf' },
      { kind: 'file' as const, bytes: Buffer.from('MZ'), fileName: 'setup.exe', mimeType: 'application/x-msdownload' },
      { kind: 'file' as const, bytes: Buffer.alloc(20 * 1024 * 1024 + 1), fileName: 'huge.pdf', mimeType: 'application/pdf' },
      { kind: 'discord_message' as const, guildId: '1', channelId: '2', messageId: '4', content: '', author: 'x', jumpUrl: 'https://discord.com/channels/1/2/4', attachments: [] },
    ];
    const before = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts'));
    for (const input of cases) {
      const error = await saveSource(suite.db, { workspaceId: ws, input, savedBy: 'u1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).httpStatus).toBe(400);
      expect((error as AppError).nextStep).toBeTruthy();
    }
    const after = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts'));
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('brings a forgotten source back when it is saved again', async () => {
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: 'Forget me not' }, savedBy: 'u1' });
    const id = artifacts[0]?.artifactId as string;
    await withWorkspace(suite.db, ws, (tx) => tx.query('update artifacts set forgotten_at = now() where id = $1', [id]));
    const again = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: 'Forget me not' }, savedBy: 'u1' });
    expect(again.artifacts[0]).toMatchObject({ artifactId: id, created: false, restored: true });
  });

  it('keeps each workspace\'s saves its own, even for the same URL', async () => {
    const a = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://example.com/shared' }, savedBy: 'u1' });
    const b = await saveSource(suite.db, { workspaceId: other, input: { kind: 'url', url: 'https://example.com/shared' }, savedBy: 'u9' });
    expect(b.artifacts[0]?.created).toBe(true);
    expect(b.artifacts[0]?.artifactId).not.toBe(a.artifacts[0]?.artifactId);
    const visibleToB = await withWorkspace(suite.db, other, (tx) => tx.query<{ id: string }>('select id from artifacts'));
    expect(visibleToB.map((r) => r.id)).toEqual([b.artifacts[0]?.artifactId]);
  });
});
