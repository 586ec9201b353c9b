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

/**
 * Every scan of `index` in plans collected by plansOf: the node's line and its detail lines
 * (Order By, Filter...), with vector literals elided. What a test asserts of a scan (its filter,
 * say) then cannot match another node's.
 */
export function indexScans(plans: string, index: string): string[] {
  const lines = plans.split('\n').map((line) => line.replace(/'\[[^\]]*\]'/g, "'[vector]'"));
  const scans: string[] = [];
  lines.forEach((line, i) => {
    if (!new RegExp(`Index (Only )?Scan using ${index} `).test(line)) return;
    const depth = line.search(/\S/);
    const details = [];
    for (const next of lines.slice(i + 1)) {
      if (next.search(/\S/) <= depth || next.includes('->')) break;
      details.push(next.trim());
    }
    scans.push([line.trim(), ...details].join('\n'));
  });
  return scans;
}
