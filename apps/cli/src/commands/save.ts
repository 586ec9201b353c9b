import type { Command } from 'commander';
import { withWorkspace } from '@brain/db';
import { AppError, coerceError } from '@brain/errors';
import { saveSource, type SourceOrigin } from '@brain/ingest';
import { compose } from '../compose.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { progressBar } from '../progress.ts';
import { indexNow } from '../services/index-now.ts';
import { expandTarget } from '../services/save-targets.ts';
import { resolveWorkspace } from '../workspace.ts';

interface Outcome {
  target: string;
  artifact_id: string | null;
  title: string | null;
  status: string;
  passages: number | null;
  created: boolean | null;
  error_code: string | null;
  error: string | null;
}

export function registerSave(program: Command): void {
  program
    .command('save')
    .description('save URLs, files, or folders (every .html, .htm, .pdf, .md and .txt below them)')
    .argument('<targets...>', 'URLs, files or folders')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--title <title>', 'title for a single URL or file')
    .option('--channel <id>', 'a Discord channel id: cite these sources only where that channel\'s readers may see them (default: everyone in the server)')
    .option('--wait', 'index now and wait until every source is ready or failed')
    .option('--json', 'print JSON')
    .action(async (targetArgs: string[], options: { workspace?: string; title?: string; channel?: string; wait?: boolean; json?: boolean }) => {
      const origin = options.channel === undefined ? undefined : channelOrigin(options.channel);
      const config = readConfig();
      const logger = cliLogger(config, 'brain-save');
      const targets = targetArgs.flatMap((t) => expandTarget(t, targetArgs.length === 1 ? options.title : undefined));
      if (targets.length === 0) {
        throw new AppError({ code: 'SAVE_NOTHING', message: 'Nothing to save: no .html, .htm, .pdf, .md or .txt files there.', nextStep: 'Point brain save at a URL, a file, or a folder of documents.' });
      }
      const db = await openConfiguredDatabase(config, 'save');
      const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger);
      const runtime = app.ingest();
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const outcomes: Outcome[] = [];
        const bar = progressBar(!options.json && targets.length > 1, 'saving', targets.length);
        for (const target of targets) {
          try {
            const result = await saveSource(db, { workspaceId: workspace.id, input: target.input, savedBy: 'cli', origin }, runtime.saveOptions);
            for (const a of result.artifacts) {
              outcomes.push({ target: target.label, artifact_id: a.artifactId, title: a.title, status: a.status, passages: null, created: a.created, error_code: null, error: null });
            }
          } catch (error) {
            const e = coerceError(error);
            outcomes.push({ target: target.label, artifact_id: null, title: null, status: 'refused', passages: null, created: null, error_code: e.code, error: e.toUserString() });
          }
          bar.tick();
        }
        bar.done();

        const saved = outcomes.filter((o) => o.artifact_id !== null);
        if (options.wait && saved.length > 0) {
          await app.checkStartup();
          await indexNow(runtime, saved.map((o) => o.artifact_id as string), !options.json, logger);
          await refreshOutcomes(db, workspace.id, saved);
        }

        if (options.json) print.json(outcomes);
        else report(outcomes, workspace.slug, Boolean(options.wait));
        if (outcomes.some((o) => o.status === 'refused' || o.status === 'failed')) process.exitCode = 1;
      } finally {
        await app.close();
        await db.close();
      }
    });
}

async function refreshOutcomes(db: Parameters<typeof withWorkspace>[0], workspaceId: string, outcomes: Outcome[]): Promise<void> {
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<{ id: string; title: string | null; status: string; chunk_count: number; error_code: string | null; error_message: string | null }>(
      'select id, title, status, chunk_count, error_code, error_message from artifacts where id = any($1::uuid[])',
      [outcomes.map((o) => o.artifact_id)],
    ),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const o of outcomes) {
    const row = byId.get(o.artifact_id as string);
    if (!row) continue;
    Object.assign(o, { title: row.title, status: row.status, passages: row.chunk_count, error_code: row.error_code, error: row.error_message });
  }
}

function report(outcomes: Outcome[], workspace: string, waited: boolean): void {
  for (const o of outcomes) {
    if (o.status === 'refused' || o.status === 'failed') print.line(`✗ ${o.target}: ${o.error} [${o.error_code}]`);
    else if (o.status === 'ready') print.line(`✓ ${o.title ?? o.target} — ${o.passages} passages`);
    else print.line(`• ${o.title ?? o.target} — ${o.created ? 'saved' : 'already saved, refreshing'}; ${o.status}`);
  }
  const failed = outcomes.filter((o) => o.status === 'refused' || o.status === 'failed').length;
  const pending = !waited && outcomes.some((o) => o.status === 'queued' || o.status === 'indexing');
  print.line(
    `${outcomes.length - failed} of ${outcomes.length} saved to workspace "${workspace}"${failed ? `, ${failed} failed` : ''}.` +
      (pending ? ' A running worker (brain start) indexes them; `brain sources` shows progress, or save with --wait.' : ''),
  );
}

/** `--channel ID`: the source takes that channel's audience, as if saved there. */
function channelOrigin(id: string): SourceOrigin {
  if (!/^[0-9]{1,20}$/.test(id)) {
    throw new AppError({
      code: 'CHANNEL_INVALID',
      message: `Not a Discord channel id: ${id}`,
      nextStep: 'Copy the channel id in Discord (User Settings › Advanced › Developer Mode, then right-click the channel › Copy Channel ID).',
    });
  }
  return { guildId: null, channelId: id, thread: false, parentId: null, privateThread: false };
}
