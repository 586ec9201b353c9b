// The fake embedding API of `npm run bench:ingest`, in its own process: a real API's work
// (turning text into vectors, encoding them) happens on someone else's machine, so it must not
// land on the event loop of the worker being measured. Prints {"url": …} once listening.
// argv: <latency ms> <vectors: text | random>
import { embedLocally } from '@brain/embeddings';
import { startFakeOpenAI } from '@brain/testkit';

const latencyMs = Number(process.argv[2] ?? '50');
const vectors = process.argv[3] ?? 'text';
// "text": vectors that carry the text's words (the local embedder's), so similar passages get
// similar vectors as with a real model. "random": the fake's default, a unit vector seeded by the
// text that resembles no other, the worst case for inserting into an HNSW graph.
const textDerived = (text: string) => Array.from(embedLocally(text));
const api = await startFakeOpenAI({ latencyMs, ...(vectors === 'text' ? { vectorFor: textDerived } : {}) });
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
