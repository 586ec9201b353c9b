import { beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { EVERYTHING, withService, type Database } from '@brain/db';
import type { SaveRateLimits } from '@brain/ingest';
import { createWorkspace, describeDb } from '@brain/db/testing';
import { call, connect, textOf } from '@brain/mcp/testing';
import { createLogger } from '@brain/observability';
import { compose, type Composition } from '../src/compose.ts';

const logger = createLogger({ level: 'silent' });

const artifactCount = async (db: Database, workspaceId: string) =>
  (await withService(db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts where workspace_id = $1', [workspaceId])))[0]?.n;

describeDb('MCP goes through the same entitlements as Discord', (suite) => {
  const config = loadConfig(
    {
      PUBLIC_URL: 'https://brain.example.com',
      STRIPE_SECRET_KEY: 'sk_test_mcp',
      STRIPE_WEBHOOK_SECRET: 'whsec_mcp',
      STRIPE_PRICE_ID: 'price_mcp',
      BRAIN_FREE_SAVES: '2',
      BRAIN_FREE_ASKS: '1',
      BRAIN_COOKIE_SECRET: 'c'.repeat(40),
    },
    { cwd: process.cwd() },
  );
  let discordGate: ReturnType<Composition['entitlementCheck']>;
  let local = '';
  let deps: ReturnType<Composition['mcp']>;

  beforeAll(async () => {
    const app = compose(config, suite.db, logger, { print: () => {} });
    // The very check start.ts hands to Discord's /save and /ask, and MCP's, from one composition.
    discordGate = app.entitlementCheck();
    local = await createWorkspace(suite.db, 'local');
    deps = app.mcp(local);
  });

  it('refuses save_source once the free saves are spent through Discord, with billing’s message and the checkout link', async () => {
    const ws = await createWorkspace(suite.db, 'spent');
    expect(await discordGate(ws, 'save')).toEqual({ allowed: true });
    expect(await discordGate(ws, 'save')).toEqual({ allowed: true });
    expect((await discordGate(ws, 'save')).allowed).toBe(false);

    const client = await connect(deps, { workspaceId: ws, name: 'agent', audience: EVERYTHING });
    const refused = await call(client, 'save_source', { text: 'An agent tries to save after the allowance.' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error FREE_ALLOWANCE_USED: This server has used its 2 free saves\. Subscribe to keep using \/save: https:\/\/brain\.example\.com\/billing\/checkout\?\S+\nNext: /);
    expect(await artifactCount(suite.db, ws)).toBe(0);
    await client.close();
  });

  it('meters save_source as a save: the allowance spent over MCP refuses Discord too', async () => {
    const ws = await createWorkspace(suite.db, 'agent-first');
    const client = await connect(deps, { workspaceId: ws, name: 'agent', audience: EVERYTHING });
    for (const text of ['First agent note.', 'Second agent note.']) expect((await call(client, 'save_source', { text })).isError).toBeFalsy();
    expect((await call(client, 'save_source', { text: 'Third agent note.' })).isError).toBe(true);
    expect(await artifactCount(suite.db, ws)).toBe(2);
    expect(await discordGate(ws, 'save')).toMatchObject({ allowed: false, code: 'FREE_ALLOWANCE_USED' });
    await client.close();
  });

  it('counts search_brain as an ask', async () => {
    const ws = await createWorkspace(suite.db, 'asks');
    const client = await connect(deps, { workspaceId: ws, name: 'agent', audience: EVERYTHING });
    expect((await call(client, 'search_brain', { query: 'how do we deploy?' })).isError).toBeFalsy();
    const refused = await call(client, 'search_brain', { query: 'and how do we roll back?' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error FREE_ALLOWANCE_USED: This server has used its 1 free questions\. Subscribe to keep using \/ask: https:\/\/brain\.example\.com\/billing\/checkout\?/);
    await client.close();
  });

  it("never meters the operator's local workspace, as the playground is not", async () => {
    const client = await connect(deps, { workspaceId: local, name: 'local', audience: EVERYTHING });
    for (let i = 0; i < 3; i++) expect((await call(client, 'save_source', { text: `Local note ${i}.` })).isError).toBeFalsy();
    await client.close();
  });

  it('applies the save rate limits to save_source, with when to try again', async () => {
    expect(deps.saveOptions.rateLimits).toMatchObject({ perMember: { limit: 20, windowSeconds: 600 }, perWorkspace: { limit: 200, windowSeconds: 3600 } });
    // Windows far longer than the test, so no window rolls over halfway through it.
    const strict = { ...deps, saveOptions: { ...deps.saveOptions, rateLimits: { ...(deps.saveOptions.rateLimits as SaveRateLimits), perMember: { limit: 2, windowSeconds: 100_000_000 } } } };
    const client = await connect(strict, { workspaceId: local, name: 'busy-agent', audience: EVERYTHING });
    for (let i = 0; i < 2; i++) expect((await call(client, 'save_source', { text: `Busy note ${i}.` })).isError).toBeFalsy();
    const refused = await call(client, 'save_source', { text: 'Busy note 2.' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error SAVE_RATE_LIMITED_MEMBER: You have saved 2 sources in the last .+\nNext: Try again in .+; nothing was saved this time\.$/);
    await client.close();
  });
});
