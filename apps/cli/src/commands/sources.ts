import { EVERYTHING } from '@brain/db';
import type { Command } from 'commander';
import { listSources, type SourceSummary } from '@brain/ingest';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerSources(program: Command): void {
  program
    .command('sources')
    .description('list what the brain knows: id, title, source, status, passages, error code')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--status <status>', 'only queued, indexing, ready or failed')
    .option('--all', 'include forgotten sources')
    .option('--json', 'print JSON')
    .action(async (options: { workspace?: string; status?: SourceSummary['status']; all?: boolean; json?: boolean }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'sources');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const sources: SourceSummary[] = [];
        let cursor: string | undefined;
        do {
          const page = await listSources(db, workspace.id, { status: options.status, includeForgotten: options.all, limit: 100, cursor, audience: EVERYTHING });
          sources.push(...page.sources);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);

        if (options.json) {
          return print.json(
            sources.map((s) => ({
              id: s.id,
              title: s.title,
              source: s.url ?? s.fileName,
              kind: s.kind,
              status: s.status,
              passages: s.passages,
              error_code: s.errorCode,
              error: s.errorMessage,
              forgotten: s.forgottenAt !== null,
              audience: s.audience,
            })),
          );
        }
        if (sources.length === 0) return print.line(`No sources in workspace "${workspace.slug}" yet. Add one with: brain save <url|file|folder>`);
        for (const s of sources) {
          const state = s.forgottenAt ? 'forgotten' : s.status === 'failed' ? `failed (${s.errorCode})` : s.status;
          print.line(`${s.id}  ${state.padEnd(10)} ${String(s.passages).padStart(5)} passages  ${audienceText(s.audience).padEnd(20)}  ${s.title ?? '(untitled)'}  ${s.url ?? s.fileName ?? ''}`);
        }
        print.line(`${sources.length} source(s) in workspace "${workspace.slug}".`);
      } finally {
        await db.close();
      }
    });
}

/** The operator sees every source; this says who else may be cited it. */
function audienceText(audience: string): string {
  if (audience === 'workspace') return 'everyone';
  if (audience === 'unknown') return 'audience unknown';
  return `#${audience.slice('channel:'.length)}`;
}
