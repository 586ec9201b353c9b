import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { sqlState, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import {
  authenticateMcpToken,
  createMcpToken,
  hashMcpToken,
  listMcpTokens,
  MCP_TOKENS_PER_WORKSPACE,
  revokeMcpToken,
  type Accounts,
} from '../src/index.ts';
import { devAccounts, installedWorkspace } from './helpers.ts';

describeDb('MCP tokens', (suite) => {
  let accounts: Accounts;
  let a: string;
  let b: string;
  beforeAll(async () => {
    accounts = devAccounts(suite.db);
    a = await installedWorkspace(accounts, 'Tokens A');
    b = await installedWorkspace(accounts, 'Tokens B');
  });

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => (isAppError(error) ? error.code : String(error)),
    );

  it('creates a prefixed 256-bit token shown once, stores only its SHA-256, and authenticates it to its workspace', async () => {
    const { token, summary } = await createMcpToken(suite.db, a, '  Claude   Desktop ', 'ana@example.com');
    expect(token).toMatch(/^brain_mcp_[A-Za-z0-9_-]{43}$/);
    expect(summary).toMatchObject({ name: 'Claude Desktop', createdBy: 'ana@example.com', lastUsedAt: null, revokedAt: null });
    const dump = await withService(suite.db, (tx) => tx.query('select * from mcp_tokens'));
    expect(JSON.stringify(dump)).not.toContain(token.slice('brain_mcp_'.length));
    expect(dump.map((r) => r.token_hash)).toContain(hashMcpToken(token));

    expect(await authenticateMcpToken(suite.db, token)).toEqual({ workspaceId: a, tokenId: summary.id, name: 'Claude Desktop', audienceScope: 'public' });
    // Surrounding whitespace from a pasted header is forgiven; nothing else is.
    expect((await authenticateMcpToken(suite.db, ` ${token}\n`)).tokenId).toBe(summary.id);
  });

  it('records last_used_at, at most once a minute', async () => {
    const { token, summary } = await createMcpToken(suite.db, a, 'usage', 'ana@example.com');
    const lastUsed = async () => (await listMcpTokens(suite.db, a)).find((t) => t.id === summary.id)?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await authenticateMcpToken(suite.db, token);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await authenticateMcpToken(suite.db, token);
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
    await withService(suite.db, (tx) => tx.query(`update mcp_tokens set last_used_at = now() - interval '2 minutes' where id = $1`, [summary.id]));
    await authenticateMcpToken(suite.db, token);
    expect(Date.now() - ((await lastUsed())?.getTime() ?? 0)).toBeLessThan(30_000);
  });

  it('refuses unknown, malformed and revoked tokens with typed 401 errors', async () => {
    expect(await codeOf(authenticateMcpToken(suite.db, `brain_mcp_${'A'.repeat(43)}`))).toBe('MCP_TOKEN_UNKNOWN');
    expect(await codeOf(authenticateMcpToken(suite.db, 'Bearer something'))).toBe('MCP_TOKEN_UNKNOWN');
    expect(await codeOf(authenticateMcpToken(suite.db, undefined))).toBe('MCP_TOKEN_UNKNOWN');
    const { token, summary } = await createMcpToken(suite.db, a, 'to revoke', 'ana@example.com');
    const revoked = await revokeMcpToken(suite.db, a, summary.id);
    expect(revoked.alreadyRevoked).toBe(false);
    expect(revoked.token.revokedAt).not.toBeNull();
    const error = await authenticateMcpToken(suite.db, token).catch((e: unknown) => e);
    expect(isAppError(error, 'MCP_TOKEN_REVOKED') && error.httpStatus).toBe(401);
    // Revoking again keeps the first time.
    const again = await revokeMcpToken(suite.db, a, summary.id);
    expect(again).toMatchObject({ alreadyRevoked: true, token: { revokedAt: revoked.token.revokedAt } });
  });

  it("never lets one workspace list or revoke another's tokens", async () => {
    const theirs = await createMcpToken(suite.db, b, 'B agent', 'bo@example.com');
    expect((await listMcpTokens(suite.db, a)).map((t) => t.id)).not.toContain(theirs.summary.id);
    expect(await codeOf(revokeMcpToken(suite.db, a, theirs.summary.id))).toBe('MCP_TOKEN_NOT_FOUND');
    expect(await codeOf(revokeMcpToken(suite.db, a, randomUUID()))).toBe('MCP_TOKEN_NOT_FOUND');
    expect(await codeOf(revokeMcpToken(suite.db, a, "x' or 1=1 --"))).toBe('MCP_TOKEN_NOT_FOUND');
    expect((await authenticateMcpToken(suite.db, theirs.token)).workspaceId).toBe(b);
  });

  it('keeps token hashes out of the tenant role entirely', async () => {
    const error = await withWorkspace(suite.db, a, (tx) => tx.query('select token_hash from mcp_tokens')).catch((e: unknown) => e);
    expect(sqlState(error)).toBe('42501');
    const update = await withWorkspace(suite.db, a, (tx) => tx.query("update mcp_tokens set name = 'x'")).catch((e: unknown) => e);
    expect(sqlState(update)).toBe('42501');
  });

  it('validates names, refuses a second live token with the same name, and frees the name on revoke', async () => {
    expect(await codeOf(createMcpToken(suite.db, a, '   ', 'ana@example.com'))).toBe('MCP_TOKEN_NAME_INVALID');
    expect(await codeOf(createMcpToken(suite.db, a, 'x'.repeat(61), 'ana@example.com'))).toBe('MCP_TOKEN_NAME_INVALID');
    expect(await codeOf(createMcpToken(suite.db, a, 42, 'ana@example.com'))).toBe('MCP_TOKEN_NAME_INVALID');
    const first = await createMcpToken(suite.db, a, 'Cursor', 'ana@example.com');
    expect(await codeOf(createMcpToken(suite.db, a, 'cursor', 'ana@example.com'))).toBe('MCP_TOKEN_NAME_TAKEN');
    // The same name in another workspace is fine.
    expect((await createMcpToken(suite.db, b, 'Cursor', 'bo@example.com')).summary.name).toBe('Cursor');
    await revokeMcpToken(suite.db, a, first.summary.id);
    expect((await createMcpToken(suite.db, a, 'Cursor', 'ana@example.com')).summary.name).toBe('Cursor');
  });

  it(`caps a workspace at ${MCP_TOKENS_PER_WORKSPACE} live tokens`, async () => {
    const ws = await installedWorkspace(accounts, 'Tokens C');
    const made = [];
    for (let i = 0; i < MCP_TOKENS_PER_WORKSPACE; i++) made.push(await createMcpToken(suite.db, ws, `agent ${i}`, 'cy@example.com'));
    expect(await codeOf(createMcpToken(suite.db, ws, 'one too many', 'cy@example.com'))).toBe('MCP_TOKEN_LIMIT');
    await revokeMcpToken(suite.db, ws, made[0]?.summary.id ?? '');
    expect((await createMcpToken(suite.db, ws, 'one too many', 'cy@example.com')).summary.name).toBe('one too many');
    // Live first, newest first; revoked ones stay listed.
    const listed = await listMcpTokens(suite.db, ws);
    expect(listed).toHaveLength(MCP_TOKENS_PER_WORKSPACE + 1);
    expect(listed[0]?.name).toBe('one too many');
    expect(listed.at(-1)?.revokedAt).not.toBeNull();
  });
});
