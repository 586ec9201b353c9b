// npx tsx bench/retrieval/fusion-legs.ts --questions eval/<set>.jsonl --workspace <slug> --out <file.json> [--depth 120] [--keyword ts_rank|bm25|bm25-top|informative:<share>] [--rocchio m,beta]
// Fetches each answerable question's two retrieval legs once (the vector leg through the HNSW
// index with match_artifacts' settings, the keyword leg with its OR-of-lexemes tsquery), each
// candidate's similarity and source, from the configured database (BRAIN_DATA_DIR or
// DATABASE_URL, after `brain eval --corpus` loaded it). fusion-sweep.ts re-fuses them offline.
// `--keyword bm25` orders the keyword leg by Okapi BM25 (k1 1.2, b 0.75) over the same matches
// instead of ts_rank, which weighs every lexeme alike: each lexeme's rarity in the workspace (its
// inverse document frequency), a passage's term counts from its tsvector's positions, and its
// length as their sum. `--keyword bm25-top` is the cheaper form a search could afford: BM25 over
// ts_rank's first 4 × depth matches only, a passage's length as its count of distinct lexemes
// (`length(fts)`) against the average of those matches.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '@brain/config';
import { findWorkspaceBySlug, openDatabase, toVectorLiteral, withService, withWorkspace } from '@brain/db';
import { createEmbedder } from '@brain/embeddings';
import { parseQuestions } from '@brain/eval';
import { searchTextOf } from '@brain/answer';
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
  const ranking = arg('keyword', 'ts_rank');
  // `--rocchio m,beta`: the vector leg searched a second time with the question's vector moved
  // toward the mean of its first m passages (pseudo-relevance feedback), q' = q + beta × mean.
  const [feedbackDepth, feedbackWeight] = arg('rocchio', '0,0').split(',').map(Number) as [number, number];
  // `--keyword informative:<share>`: ts_rank over the question's lexemes found in under <share> of
  // the workspace's passages only (all of them when none is), as if the generic ones were not asked.
  const informativeShare = ranking.startsWith('informative:') ? Number(ranking.slice('informative:'.length)) : undefined;
  if (ranking !== 'ts_rank' && ranking !== 'bm25' && ranking !== 'bm25-top' && !((informativeShare ?? 0) > 0)) throw new Error('--keyword is ts_rank, bm25, bm25-top or informative:<share>');
  const config = loadConfig(process.env, { cwd: process.cwd() });
  const questions = parseQuestions(readFileSync(questionsFile, 'utf8'), questionsFile).filter((q) => q.answerable);
  const embedder = createEmbedder(config.embedding);
  const db = await openDatabase(config.database, { command: 'fusion-legs' });
  try {
    const workspace = await withService(db, (tx) => findWorkspaceBySlug(tx, slug));
    if (!workspace) throw new Error(`no workspace ${slug}`);
    // Both legs search what /ask searches: the question followed by the documentation's words for its phrases.
    const texts = questions.map((q) => searchTextOf(q.question));
    const vectors = await embedder.embed(texts);
    const legs: QuestionLegs[] = [];
    const [live] = await withWorkspace(db, workspace.id, (tx) =>
      tx.query<{ n: number }>('select count(*)::int as n from public.chunks where workspace_id = $1 and is_live', [workspace.id]),
    );
    await withWorkspace(db, workspace.id, async (tx) => {
      await tx.query("select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '100', true)");
      for (const [i, q] of questions.entries()) {
        let vector = toVectorLiteral(vectors[i] as number[]);
        // The passages' vectors are read only when feedback needs them.
        const nearest = (v: string) =>
          tx.query<{ id: string; embedding: string | null }>(
            `select c.id, case when $4 then c.embedding::text end as embedding from public.chunks c
              where c.workspace_id = $1 and c.embedding is not null and c.is_live
              order by c.embedding <=> $2::vector limit $3`,
            [workspace.id, v, depth, feedbackDepth > 0],
          );
        let vectorLeg = await nearest(vector);
        if (feedbackDepth > 0) {
          vector = toVectorLiteral(moveToward(vectors[i] as number[], vectorLeg.slice(0, feedbackDepth).map((r) => JSON.parse(r.embedding ?? '[]') as number[]), feedbackWeight));
          vectorLeg = await nearest(vector);
        }
        const lexemes = await tx.query<{ lexeme: string; df: number }>(
          `select x as lexeme,
                  (select count(*)::int from public.chunks c
                    where c.workspace_id = $1 and c.is_live and c.fts @@ quote_literal(x)::tsquery) as df
             from unnest((tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32]) x`,
          [workspace.id, texts[i]],
        );
        const informative = informativeShare === undefined ? [] : lexemes.filter((l) => l.df > 0 && l.df < informativeShare * (live?.n ?? 0)).map((l) => l.lexeme);
        const keywordLeg = await tx.query<{ id: string; rank: number }>(
          informative.length > 0 ? INFORMATIVE_LEG : ranking === 'bm25' ? BM25_LEG : ranking === 'bm25-top' ? BM25_TOP_LEG : `with l as (select (tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32] as lexemes),
                q as (select string_agg(quote_literal(x), ' | ')::tsquery as tsq from l, unnest(l.lexemes) x)
           select c.id, ts_rank(c.fts, q.tsq, 1)::float8 as rank from public.chunks c, q
            where q.tsq is not null and c.workspace_id = $1 and c.is_live and c.fts @@ q.tsq
            order by ts_rank(c.fts, q.tsq, 1) desc, c.id limit $3`,
          informative.length > 0 ? [workspace.id, informative, depth] : [workspace.id, texts[i], depth],
        );
        const ids = [...new Set([...vectorLeg.map((r) => r.id), ...keywordLeg.map((r) => r.id)])];
        const facts = await tx.query<{ id: string; artifact_id: string; sim: number; url: string | null; file_name: string | null }>(
          `select c.id, c.artifact_id, (1 - (c.embedding <=> $2::vector))::float8 as sim, a.url, a.file_name
             from public.chunks c join public.artifacts a on a.id = c.artifact_id
            where c.id = any($1::uuid[])`,
          [`{${ids.join(',')}}`, vector],
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

function moveToward(q: number[], docs: number[][], beta: number): number[] {
  const out = q.map((x, d) => x + (beta * docs.reduce((sum, v) => sum + (v[d] ?? 0), 0)) / Math.max(docs.length, 1));
  const norm = Math.hypot(...out) || 1;
  return out.map((x) => x / norm);
}

const INFORMATIVE_LEG = `
with q as (select string_agg(quote_literal(x), ' | ')::tsquery as tsq from unnest($2::text[]) x)
select c.id, ts_rank(c.fts, q.tsq, 1)::float8 as rank from public.chunks c, q
 where c.workspace_id = $1 and c.is_live and c.fts @@ q.tsq
 order by ts_rank(c.fts, q.tsq, 1) desc, c.id limit $3`;

const BM25_LEG = `
with l as (select (tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32] as lexemes),
     q as (select string_agg(quote_literal(x), ' | ')::tsquery as tsq from l, unnest(l.lexemes) x),
     stats as (select count(*)::float8 as n,
                      avg((select sum(coalesce(array_length(u.positions, 1), 1)) from unnest(c.fts) u))::float8 as avgdl
                 from public.chunks c where c.workspace_id = $1 and c.is_live),
     df as (select x as lexeme,
                   (select count(*)::float8 from public.chunks c
                     where c.workspace_id = $1 and c.is_live and c.fts @@ quote_literal(x)::tsquery) as n
              from l, unnest(l.lexemes) x),
     matches as (select c.id, c.fts from public.chunks c, q
                  where q.tsq is not null and c.workspace_id = $1 and c.is_live and c.fts @@ q.tsq),
     terms as (select m.id, u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 as tf,
                      (select sum(coalesce(array_length(v.positions, 1), 1)) from unnest(m.fts) v)::float8 as dl
                 from matches m, unnest(m.fts) u)
select t.id,
       sum(ln(1 + (s.n - d.n + 0.5) / (d.n + 0.5)) * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * t.dl / s.avgdl)))::float8 as rank
  from terms t join df d on d.lexeme = t.lexeme, stats s
 group by t.id
 order by rank desc, t.id
 limit $3`;

const BM25_TOP_LEG = `
with l as (select (tsvector_to_array(to_tsvector('english'::regconfig, left($2, 2000))))[1:32] as lexemes),
     q as (select string_agg(quote_literal(x), ' | ')::tsquery as tsq from l, unnest(l.lexemes) x),
     total as (select count(*)::float8 as n from public.chunks c where c.workspace_id = $1 and c.is_live),
     df as (select x as lexeme,
                   (select count(*)::float8 from public.chunks c
                     where c.workspace_id = $1 and c.is_live and c.fts @@ quote_literal(x)::tsquery) as n
              from l, unnest(l.lexemes) x),
     matches as (select c.id, c.fts, length(c.fts)::float8 as dl from public.chunks c, q
                  where q.tsq is not null and c.workspace_id = $1 and c.is_live and c.fts @@ q.tsq
                  order by ts_rank(c.fts, q.tsq, 1) desc, c.id limit 4 * $3),
     avgdl as (select avg(dl) as v from matches)
select m.id,
       sum(ln(1 + (t.n - d.n + 0.5) / (d.n + 0.5)) * coalesce(array_length(u.positions, 1), 1) * 2.2
           / (coalesce(array_length(u.positions, 1), 1) + 1.2 * (0.25 + 0.75 * m.dl / a.v)))::float8 as rank
  from matches m cross join lateral unnest(m.fts) u join df d on d.lexeme = u.lexeme, total t, avgdl a
 group by m.id
 order by rank desc, m.id
 limit $3`;

await main();
