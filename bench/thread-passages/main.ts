// npm run bench:thread-passages [-- --budgets 400,300,200,120]
// How big a saved thread's passages should be: for each passage budget, the 240-message forum
// post of the tests (testkit's forumPostFixture) is turned into passages exactly as "Save thread to
// brain" does (discord's threadMessages, chunking's chunkConversation), and each of its two
// questions is embedded with the local embedder beside every passage. Reports, per budget, the
// passage count, the question's cosine similarity to the passage holding its answer, and that
// passage's rank among all of them (1 = nearest). The floor below which /ask ignores a passage is
// 0.15 (match_artifacts' default min_similarity). Writes bench/results/thread-passages-*.json.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { chunkConversation, textForEmbedding } from '@brain/chunking';
import { threadMessages } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { forumPostFixture, THREAD_FACTS } from '@brain/testkit';
import type { APIMessage } from 'discord-api-types/v10';

const { values: args } = parseArgs({ options: { budgets: { type: 'string', default: '400,300,200,120' } } });
const budgets = (args.budgets ?? '').split(',').map(Number);
const GUILD = '920000000000000002';
const post = forumPostFixture({ guildId: GUILD, startMs: Date.parse('2026-12-01T09:00:00Z') });
const messages = threadMessages(post.messages as unknown as APIMessage[], { guildId: GUILD, threadId: post.id, parentId: null }).map((m) => ({
  ...m,
  attachments: m.attachments.map((a) => a.fileName),
}));
const embedder = createLocalEmbedder();
const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    x += (a[i] as number) ** 2;
    y += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(x * y);
};

const rows = [];
for (const maxTokens of budgets) {
  const chunks = chunkConversation({ title: 'Release process help', messages }, { maxTokens });
  const vectors = await embedder.embed(chunks.map((c) => textForEmbedding(c)));
  for (const [n, fact] of Object.entries(THREAD_FACTS)) {
    const holder = chunks.findIndex((c) => c.spans.some((s) => s.messageId === post.byNumber.get(Number(n))?.id));
    const [q] = await embedder.embed([fact.question]);
    const sims = vectors.map((v) => cosine(q as number[], v));
    const own = sims[holder] as number;
    rows.push({
      max_tokens: maxTokens,
      passages: chunks.length,
      message: Number(n),
      question: fact.question,
      similarity_to_answer_passage: Math.round(own * 1000) / 1000,
      rank_of_answer_passage: 1 + sims.filter((s) => s > own).length,
    });
  }
}
const result = { bench: 'thread-passages', at: new Date().toISOString(), embedder: embedder.model, min_similarity_floor: 0.15, messages: messages.length, rows };
for (const r of rows) console.log(`${String(r.max_tokens).padStart(4)} tokens: ${String(r.passages).padStart(3)} passages · message ${r.message}: similarity ${r.similarity_to_answer_passage.toFixed(3)}, rank ${r.rank_of_answer_passage}`);
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const file = new URL(`../results/thread-passages-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
console.log(`wrote ${file.pathname.split('/').slice(-3).join('/')} — reproduce with: npm run bench:thread-passages -- --budgets ${budgets.join(',')}`);
