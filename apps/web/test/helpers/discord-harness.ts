import { PermissionFlagsBits } from 'discord-api-types/v10';
import { loadConfig } from '@brain/config';
import { withService, type Database } from '@brain/db';
import {
  createDiscordApi,
  createDiscordSurface,
  generateDevKeyPair,
  type AskFunction,
  type AttachmentDownloader,
  type BillingPortal,
  type DiscordSurface,
  type EntitlementCheck,
} from '@brain/discord';
import type { SaveRateLimits } from '@brain/ingest';
import { createLogger, type BrainMetrics, type Logger } from '@brain/observability';
import { autocompleteRequest, buttonPress, messageMenuCommand, slashCommand, type FakeDiscord, type InteractionOption } from '@brain/testkit';
import { buildApp, type WebApp } from '../../src/index.ts';

export const APP_ID = '900000000000000001';
export const ADMIN = String(PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendMessages);
export const MEMBER = String(PermissionFlagsBits.SendMessages);

let seq = 0;
export function snowflake(): string {
  seq += 1;
  return String((BigInt(Date.now() - 1_420_070_400_000) << 22n) + BigInt(seq));
}

/** A guild with a claimed workspace (or unclaimed), as billing's install and claim leave it. */
export async function createGuildWorkspace(db: Database, options: { claimed?: boolean } = {}): Promise<{ guildId: string; workspaceId: string }> {
  const guildId = String(BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000)));
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>(
      `insert into workspaces (slug, guild_id, claim_email, claimed_at) values ($1, $2, $3, $4) returning id`,
      [`g-${guildId}`, guildId, options.claimed === false ? null : 'owner@example.com', options.claimed === false ? null : new Date()],
    ),
  );
  return { guildId, workspaceId: (row as { id: string }).id };
}

export interface Harness {
  app: WebApp;
  surface: DiscordSurface;
  keys: ReturnType<typeof generateDevKeyPair>;
  /** Signs and POSTs an interaction body to /interactions. The reply is whatever JSON came back. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read replies of many shapes
  send(body: object, options?: { timestamp?: number; key?: ReturnType<typeof generateDevKeyPair>; raw?: string }): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  db: Database;
  discord: FakeDiscord;
  ask?: AskFunction;
  checkEntitlement?: EntitlementCheck;
  downloadAttachment?: AttachmentDownloader;
  openBillingPortal?: BillingPortal;
  now?: () => number;
  watchIntervalMs?: number;
  metrics?: BrainMetrics;
  logger?: Logger;
  saveRateLimits?: SaveRateLimits;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const keys = generateDevKeyPair();
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const surface = createDiscordSurface({
    db: options.db,
    logger,
    ask: options.ask ?? (async () => Promise.reject(new Error('ask not expected in this test'))),
    checkEntitlement: options.checkEntitlement ?? (async () => ({ allowed: true })),
    downloadAttachment: options.downloadAttachment ?? (async () => Promise.reject(new Error('no downloads in this test'))),
    openBillingPortal: options.openBillingPortal,
    saveRateLimits: options.saveRateLimits,
    links: { install: () => 'https://brain.example.com/install', claim: (g) => `https://brain.example.com/claim?guild=${g}` },
    discord: { publicKey: keys.publicKeyHex, api: createDiscordApi({ apiBase: options.discord.apiBase, retries: 0, timeoutMs: 5000 }) },
    watchIntervalMs: options.watchIntervalMs ?? 50,
    metrics: options.metrics?.interactions,
    ...(options.now ? { now: options.now } : {}),
  });
  if (!surface) throw new Error('no surface');
  const app = await buildApp({ config: loadConfig({}, { cwd: process.cwd() }), db: options.db, logger, discord: surface, metrics: options.metrics });
  return {
    app,
    surface,
    keys,
    async send(body, sendOptions = {}) {
      const raw = sendOptions.raw ?? JSON.stringify(body);
      const timestamp = String(sendOptions.timestamp ?? Math.floor(Date.now() / 1000));
      const res = await app.inject({
        method: 'POST',
        url: '/interactions',
        headers: { 'content-type': 'application/json', 'x-signature-ed25519': (sendOptions.key ?? keys).sign(timestamp, raw), 'x-signature-timestamp': timestamp },
        payload: raw,
      });
      return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : undefined };
    },
    async close() {
      await app.close();
      await surface.close(5_000);
    },
  };
}

// Every interaction comes from testkit's one builder; these bind this app's id and an admin by default.
const as = (guildId: string | undefined, permissions = ADMIN) => ({ applicationId: APP_ID, guildId, permissions });

export function slash(guildId: string | undefined, name: string, opts: InteractionOption[] = [], extra: { permissions?: string; resolved?: object } = {}) {
  return slashCommand(as(guildId, extra.permissions), name, opts, extra.resolved ? { resolved: extra.resolved } : {});
}

export function autocomplete(guildId: string, name: string, opts: InteractionOption[]) {
  return autocompleteRequest(as(guildId), name, opts);
}

export function button(guildId: string, customId: string, permissions = ADMIN) {
  return buttonPress(as(guildId, permissions), customId);
}

export function messageCommand(guildId: string, message: { content: string; attachments?: object[] }) {
  const id = snowflake();
  const author = { id: '300000000000000009', username: 'grace', global_name: 'Grace', discriminator: '0', avatar: null };
  return messageMenuCommand(as(guildId), 'Save to brain', { id, channel_id: '200000000000000001', author, content: message.content, attachments: message.attachments ?? [], embeds: [], timestamp: new Date().toISOString() });
}

/** Inserts a queries row the way ask() records one, for answers a fake ask returns. */
export async function recordQuery(db: Database, workspaceId: string, question: string): Promise<string> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>(`insert into queries (workspace_id, question, answer, grounded, answerer, surface) values ($1, $2, 'a', true, 'extractive', 'discord') returning id`, [workspaceId, question]),
  );
  return (row as { id: string }).id;
}
