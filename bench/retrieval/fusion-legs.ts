// npx tsx bench/retrieval/fusion-legs.ts --questions eval/<set>.jsonl --workspace <slug> --out <file.json> [--depth 120]
// Fetches each answerable question's two retrieval legs once (the vector leg through the HNSW
// index with match_artifacts' settings, the keyword leg with its OR-of-lexemes tsquery), each
// candidate's similarity and source, from the configured database (BRAIN_DATA_DIR or
// DATABASE_URL, after `brain eval --corpus` loaded it). fusion-sweep.ts re-fuses them offline.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '@brain/config';
import { findWorkspaceBySlug, openDatabase, toVectorLiteral, withService, withWorkspace } from '@brain/db';
import { createEmbedder } from '@brain/embeddings';
import { parseQuestions } from '@brain/eval';
import type { LegsFile, QuestionLegs } from './fusion-model.ts';

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : fallback;
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const questionsFile = arg('questions');
  const slug = arg('workspace');
  const out = arg('out');
  const depth = Number(arg('depth', '120'));
  const config = loadConfig(process.env, { cwd: process.cwd() });
  const questions = parseQuestions(readFileSync(questionsFile, 'utf8'), questionsFile).filter((q) => q.answerable);
  const embedder = createEmbedder(config.embedding);
  const db = await openDatabase(config.database, { command: 'fusion-legs' });
  try {
    const workspace = await withService(db, (tx) => findWorkspaceBySlug(tx, slug));
    if (!workspace) throw new Error(`no workspace ${slug}`);
    const vectors = await embedder.embed(questions.map((q) => q.question));
    const legs: QuestionLegs[] = [];
    await withWorkspace(db, workspace.id, async (tx) => {
      await tx.query("select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '100', true)");
      for (const [i, q] of questions.entries()) {
        const vector = toVectorLiteral(vectors[i] as number[]);
        const vectorLeg = await tx.query<{ id: string }>(
          `select c.id from public.chunks c
            where c.workspace_id = $1 and c.embedding is not null and c.is_live
            order by c.embedding <=> $2::vector limit $3`,
          [workspace.id, vector, depth],
        );
        const keywordLeg = await tx.query<{ id: string; rank: number }>(
          `with l as (select (tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32] as lexemes),
                q as (select string_agg(quote_literal(x), ' | ')::tsquery as tsq from l, unnest(l.lexemes) x)
           select c.id, ts_rank(c.fts, q.tsq, 1)::float8 as rank from public.chunks c, q
            where q.tsq is not null and c.workspace_id = $1 and c.is_live and c.fts @@ q.tsq
            order by ts_rank(c.fts, q.tsq, 1) desc, c.id limit $3`,
          [workspace.id, q.question, depth],
        );
        const ids = [...new Set([...vectorLeg.map((r) => r.id), ...keywordLeg.map((r) => r.id)])];
        const facts = await tx.query<{ id: string; artifact_id: string; sim: number; url: string | null; file_name: string | null }>(
          `select c.id, c.artifact_id, (1 - (c.embedding <=> $2::vector))::float8 as sim, a.url, a.file_name
             from public.chunks c join public.artifacts a on a.id = c.artifact_id
            where c.id = any($1::uuid[])`,
          [`{${ids.join(',')}}`, vector],
        );
        const lexemes = await tx.query<{ lexeme: string; df: number }>(
          `select x as lexeme,
                  (select count(*)::int from public.chunks c
                    where c.workspace_id = $1 and c.is_live and c.fts @@ quote_literal(x)::tsquery) as df
             from unnest((tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32]) x`,
          [workspace.id, q.question],
        );
        legs.push({
          lexemes,
          id: q.id,
          kind: q.kind,
          split: q.split ?? null,
          question: q.question,
          expected: q.expected_sources,
          vector: vectorLeg.map((r) => r.id),
          keyword: keywordLeg.map((r) => ({ id: r.id, rank: Number(r.rank) })),
          candidates: Object.fromEntries(
            facts.map((f) => [f.id, { artifactId: f.artifact_id, sim: Number(f.sim), url: f.url, fileName: f.file_name }]),
          ),
        });
      }
    });
    const [total] = await withWorkspace(db, workspace.id, (tx) =>
      tx.query<{ n: number }>('select count(*)::int as n from public.chunks where workspace_id = $1 and is_live and embedding is not null', [workspace.id]),
    );
    const file: LegsFile = { model: embedder.model, workspace: slug, depth, passages: total?.n ?? 0, questions: legs };
    writeFileSync(out, JSON.stringify(file));
    console.error(`${legs.length} questions, ${embedder.model}, depth ${depth} → ${out}`);
  } finally {
    await db.close();
  }
}

await main();
