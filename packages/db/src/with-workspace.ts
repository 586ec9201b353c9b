import { AppError } from '@brain/errors';
import type { Database, Queryable } from './database.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Runs `fn` in one transaction as brain_tenant with the transaction's workspace set, so Row Level
 * Security confines every statement to that workspace. Both settings are transaction-local
 * (SET LOCAL / set_config(..., true)): behind a pooler, nothing leaks into the next request.
 */
export async function withWorkspace<T>(db: Database, workspaceId: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  if (!isUuid(workspaceId)) {
    throw new AppError({
      code: 'WORKSPACE_ID_INVALID',
      message: `Not a workspace id: ${JSON.stringify(String(workspaceId)).slice(0, 60)}`,
      httpStatus: 400,
    });
  }
  return db.transaction(async (tx) => {
    await tx.exec('set local role brain_tenant');
    await tx.query("select set_config('app.workspace_id', $1, true)", [workspaceId]);
    return fn(tx);
  });
}

/**
 * Runs `fn` in one transaction as service_role (BYPASSRLS), for work that spans workspaces by
 * design: claiming queue jobs, installing a workspace, applying a Stripe event. Keep these few.
 */
export async function withService<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec('set local role service_role');
    return fn(tx);
  });
}
