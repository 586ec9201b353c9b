import { expect, it } from 'vitest';
import { withService } from '@brain/db';
import { createWorkspace, describeDb } from '@brain/db/testing';
import { createGuildWorkspaceResolver } from '../src/workspace/resolve-workspace.ts';

const GUILD = '700000000000000042';

describeDb('guild → workspace resolver', (suite) => {
  it('answers a ready server from its expired entry at once while reading it again, and sees the change afterwards', async () => {
    const id = await createWorkspace(suite.db, 'resolver-ready', GUILD);
    await withService(suite.db, (tx) => tx.query("update workspaces set claim_email = 'owner@example.com', claimed_at = now() where id = $1", [id]));
    let clock = 0;
    const resolver = createGuildWorkspaceResolver(suite.db, { readyTtlMs: 1_000, now: () => clock });
    expect(await resolver.resolve(GUILD)).toEqual({ kind: 'ready', workspaceId: id });

    // Moved to another server meanwhile: within the entry's life the cache answers…
    await withService(suite.db, (tx) => tx.query("update workspaces set guild_id = '700000000000000099' where id = $1", [id]));
    clock = 500;
    expect(await resolver.resolve(GUILD)).toEqual({ kind: 'ready', workspaceId: id });
    // …and once it has expired, it still answers once, without waiting for the database…
    clock = 1_500;
    const stale = resolver.resolve(GUILD);
    // Before any database round trip could have finished (the next turn of the event loop).
    const first = await Promise.race([stale.then(() => 'cache'), new Promise((resolve) => setImmediate(() => resolve('database')))]);
    expect(first).toBe('cache');
    expect(await stale).toEqual({ kind: 'ready', workspaceId: id });
    // …and the refresh it started is what the next interaction sees.
    await expect.poll(() => resolver.resolve(GUILD)).toEqual({ kind: 'not-installed' });
  });

  it('waits for the database for a server it has not seen, or one not ready', async () => {
    let clock = 0;
    const resolver = createGuildWorkspaceResolver(suite.db, { notReadyTtlMs: 1_000, now: () => clock });
    const guild = '700000000000000043';
    expect(await resolver.resolve(guild)).toEqual({ kind: 'not-installed' });
    const id = await createWorkspace(suite.db, 'resolver-late', guild);
    clock = 1_500;
    // Not ready before: nothing stale is served, the answer is the database's.
    expect(await resolver.resolve(guild)).toEqual({ kind: 'unclaimed', workspaceId: id });
  });
});
