import { EVERYTHING } from '@brain/db';
import type { Command } from 'commander';
import { toAskJson, type AskResult } from '@brain/answer';
import { compose } from '../compose.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerAsk(program: Command): void {
  program
    .command('ask')
    .description('answer a question from the saved sources only, with numbered citations')
    .argument('<question>', 'the question, in quotes')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--json', 'print { answer, grounded, citations, query_id, … } as JSON')
    .action(async (question: string, options: { workspace?: string; json?: boolean }) => {
      const config = readConfig();
      const logger = cliLogger(config, 'brain-ask');
      const db = await openConfiguredDatabase(config, 'ask');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger);
        await app.checkStartup();
        const result = await app.answering()({ workspaceId: workspace.id, question, surface: 'cli', askedBy: 'cli', audience: EVERYTHING });
        if (options.json) print.json(toAskJson(result));
        else printAnswer(result);
      } finally {
        await db.close();
      }
    });
}

function printAnswer(result: AskResult): void {
  print.line(result.answer);
  if (result.citations.length > 0) {
    print.line('');
    print.line('Sources:');
    for (const c of result.citations) {
      const similarity = c.similarity === null ? '' : `similarity ${c.similarity.toFixed(2)}, `;
      print.line(`  [${c.n}] ${c.title ?? '(untitled)'}${c.heading ? ` › ${c.heading}` : ''}${c.url ? ` <${c.url}>` : ''} (${similarity}${c.matchedBy.join('+')})`);
    }
  }
  if (result.trimmed) print.line('(Some retrieved passages were shortened to fit the context budget.)');
}
