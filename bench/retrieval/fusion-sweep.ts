// npx tsx bench/retrieval/fusion-sweep.ts <legs.json>... [--split tune|test|all] [--group first|flat|max|combo] [--misses]
// Re-fuses prefetched legs (fusion-legs.ts) with every candidate below and prints recall@5 / MRR
// per set for hybrid, beside each single mode, so a fusion is chosen on the tune half only.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { measure, rrf, type LegsFile, type QuestionLegs } from './fusion-model.ts';
import { CANDIDATE_GROUPS, candidates, type CandidateGroup } from './fusion-candidates.ts';

const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--split' && all[i - 1] !== '--group');
const groupArg = (process.argv.includes('--group') ? process.argv[process.argv.indexOf('--group') + 1] : 'first') as CandidateGroup;
if (!CANDIDATE_GROUPS.includes(groupArg)) throw new Error(`--group is one of ${CANDIDATE_GROUPS.join(', ')}`);
const splitArg = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'tune';
const sets = files.map((f) => {
  const legs = JSON.parse(readFileSync(f, 'utf8')) as LegsFile;
  const questions = legs.questions.filter((q: QuestionLegs) => splitArg === 'all' || q.split === splitArg).map((q) => ({ ...q, passages: legs.passages }));
  return { name: basename(f, '.json'), legs, questions };
});

const fmt = (m: { recall: number; mrr: number }) => `${m.recall.toFixed(3)}/${m.mrr.toFixed(3)}`;
const singles = rrf();
console.log(`split ${splitArg}; ${sets.map((s) => `${s.name}: ${s.questions.length} q, vector ${fmt(measure(s.questions, singles, 'vector'))}, keyword ${fmt(measure(s.questions, singles, 'keyword'))}`).join('; ')}`);
const verbose = process.argv.includes('--misses');
for (const c of candidates(groupArg)) {
  const row = sets.map((s) => {
    const h = measure(s.questions, c, 'hybrid');
    const v = measure(s.questions, c, 'vector');
    const k = measure(s.questions, c, 'keyword');
    const ok = h.recall >= Math.max(v.recall, k.recall) && h.mrr >= Math.max(v.mrr, k.mrr) - 1e-9;
    const todayV = measure(s.questions, singles, 'vector');
    const todayK = measure(s.questions, singles, 'keyword');
    const beatsToday = h.recall >= Math.max(todayV.recall, todayK.recall) && h.mrr >= Math.max(todayV.mrr, todayK.mrr) - 1e-9;
    return `${fmt(h)}${ok ? '✓' : ' '}${beatsToday ? '*' : ' '} (v ${fmt(v)} k ${fmt(k)})${verbose ? ` [${h.misses.join(' ')}]` : ''}`;
  });
  console.log(`${row.join('  ')}  ${c.name}`);
}
