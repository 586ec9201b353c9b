import type { Database, Queryable } from '../index.ts';

/**
 * Runs fn as the tenant with auto_explain sending the plan of every statement, nested ones
 * included, as a NOTICE, and returns those collected in `notices` (the suite's onNotice fills it).
 * auto_explain's settings need a superuser, so they are set before the transaction switches to
 * brain_tenant, as withWorkspace does.
 */
export async function plansOf(
  db: Database,
  notices: string[],
  workspaceId: string,
  fn: (tx: Queryable) => Promise<unknown>,
  extraSettings = '',
): Promise<string> {
  notices.length = 0;
  await db.transaction(async (tx) => {
    await tx.exec(`
      load 'auto_explain';
      set local auto_explain.log_min_duration = 0;
      set local auto_explain.log_nested_statements = on;
      set local auto_explain.log_level = notice;
      set local client_min_messages = notice;
      ${extraSettings}
      set local role brain_tenant;`);
    await tx.query("select set_config('app.workspace_id', $1, true)", [workspaceId]);
    await fn(tx);
  });
  return notices.join('\n');
}
