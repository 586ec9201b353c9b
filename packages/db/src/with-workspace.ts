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
  assertWorkspaceId(workspaceId);
  return db.transaction(async (tx) => {
    await actAsTenant(tx, workspaceId);
    return fn(tx);
  });
}

/**
 * Switches the current transaction to the tenant (see withWorkspace). For the rare transaction
 * that must also touch service-only rows, e.g. the ingestion swap that completes its job in the
 * same commit: act as service for the job row, as the tenant for the data.
 */
export async function actAsTenant(tx: Queryable, workspaceId: string): Promise<void> {
  assertWorkspaceId(workspaceId);
  // set_config('role', …, true) is SET LOCAL ROLE; one statement, so one round trip a transaction
  // fewer (the embedded database answers from another thread).
  await tx.query("select set_config('role', 'brain_tenant', true), set_config('app.workspace_id', $1, true)", [workspaceId]);
}

export async function actAsService(tx: Queryable): Promise<void> {
  await tx.query("select set_config('role', 'service_role', true), set_config('app.workspace_id', '', true)");
}

function assertWorkspaceId(workspaceId: string): void {
  if (!isUuid(workspaceId)) {
    throw new AppError({
      code: 'WORKSPACE_ID_INVALID',
      message: `Not a workspace id: ${JSON.stringify(String(workspaceId)).slice(0, 60)}`,
      httpStatus: 400,
    });
  }
}

/**
 * Runs `fn` in one transaction as service_role (BYPASSRLS), for work that spans workspaces by
 * design: claiming queue jobs, installing a workspace, applying a Stripe event. Keep these few.
 */
export async function withService<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await actAsService(tx);
    return fn(tx);
  });
}
