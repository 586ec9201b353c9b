import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import type { BillingPortal } from '@brain/discord';
import { AppError } from '@brain/errors';
import { startFakeDiscord, type FakeDiscord } from '@brain/testkit';
import { createGuildWorkspace, MEMBER, slash, startHarness, type Harness } from './helpers/discord-harness.ts';

describeDb('/billing: the Customer Portal, for admins, ephemeral', (suite) => {
  let discord: FakeDiscord;
  let withBilling: Harness;
  let withoutBilling: Harness;
  let guild: { guildId: string; workspaceId: string };
  const opened: string[] = [];
  let portal: BillingPortal = async () => Promise.reject(new Error('unset'));

  beforeAll(async () => {
    discord = await startFakeDiscord();
    withBilling = await startHarness({ db: suite.db, discord, openBillingPortal: (ws) => portal(ws) });
    withoutBilling = await startHarness({ db: suite.db, discord });
    guild = await createGuildWorkspace(suite.db);
  });
  afterAll(async () => {
    await withBilling.close();
    await withoutBilling.close();
    await discord.close();
  });

  const content = async (h: Harness, body: ReturnType<typeof slash>) => {
    expect((await h.send(body)).json).toEqual({ type: 5, data: { flags: 64 } });
    const [edit] = await discord.waitForCalls(body.token, 1);
    return String(edit?.body.content);
  };

  it('gives an admin a portal link for this server’s workspace only, visible to them alone', async () => {
    portal = async (ws) => {
      opened.push(ws);
      return { url: 'https://billing.stripe.test/p/session_123' };
    };
    const text = await content(withBilling, slash(guild.guildId, 'billing'));
    expect(text).toContain('(https://billing.stripe.test/p/session_123)');
    expect(opened).toEqual([guild.workspaceId]);
  });

  it('refuses a member without Manage Server, without opening a session', async () => {
    const before = opened.length;
    const res = await withBilling.send(slash(guild.guildId, 'billing', [], { permissions: MEMBER }));
    expect(res.json.type).toBe(4);
    expect(res.json.data.flags & 64).toBe(64);
    expect(opened.length).toBe(before);
  });

  it('says what to do when the server has no subscription yet, and when billing is off', async () => {
    portal = async (ws) => {
      throw new AppError({ code: 'BILLING_NO_CUSTOMER', message: 'none', userMessage: 'This server has no subscription yet.', nextStep: `Subscribe here: https://brain.example.com/billing/checkout?workspace=${ws}` });
    };
    const noCustomer = await content(withBilling, slash(guild.guildId, 'billing'));
    expect(noCustomer).toContain('no subscription yet');
    expect(noCustomer).toContain(`/billing/checkout?workspace=${guild.workspaceId}`);

    const off = await content(withoutBilling, slash(guild.guildId, 'billing'));
    expect(off).toContain('Billing is off');
  });
});
