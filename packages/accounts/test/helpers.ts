import { withService, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { createAccounts, DevOutboxMailer, type Accounts, type MagicLinkMailer } from '../src/index.ts';

export const logger = createLogger({ level: 'silent' });
export const PUBLIC_URL = 'https://brain.example.com';

export function devAccounts(db: Database, mailer: MagicLinkMailer = new DevOutboxMailer({ print: () => {} })): Accounts {
  return createAccounts({ db, mailer, logger, publicUrl: PUBLIC_URL });
}

let guildSeq = 100_000_000_000_000_000n;
export function nextGuildId(): string {
  guildSeq += 1n;
  return guildSeq.toString();
}

export async function installedWorkspace(accounts: Accounts, name = 'Test Guild'): Promise<string> {
  const ws = await accounts.install({ id: nextGuildId(), name }, `10.0.0.${Math.floor(Math.random() * 250)}`);
  return ws.id;
}

export async function claimEmailOf(db: Database, workspaceId: string): Promise<string | null> {
  const [row] = await withService(db, (tx) => tx.query<{ claim_email: string | null }>('select claim_email from workspaces where id = $1', [workspaceId]));
  return row?.claim_email ?? null;
}

/** The token in a magic link's URL. */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
