// bench:ack --with-ingest: saves a documentation site through signed `/save url:` interactions,
// then measures acknowledgements while `brain start` fetches, parses, chunks, embeds and writes
// those pages. The bare verifier is measured in the same window, at the same rate, by a load
// generator of its own, so both see the same machine.
import http from 'node:http';
import type { DevKeyPair } from '@brain/discord';
import { guildSlashCommand } from '@brain/testkit';
import { postSignedInteraction, signInteraction } from '../signed-interaction.ts';
import { BENCH_APPLICATION_ID } from './interactions.ts';

export interface SinkSaves {
  edits: number;
  saved: number;
  failed: number;
  stillIndexing: number;
  other: number;
  examples: string[];
  lastFinalAt: number;
}

/** Sends one signed /save url: per page, a few at a time; resolves once every one was acknowledged. */
export async function savePages(appInteractionsUrl: string, pageUrls: string[], guildId: string, keys: DevKeyPair): Promise<{ acknowledged: number; refused: number; ms: number }> {
  const started = Date.now();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let acknowledged = 0;
  let refused = 0;
  const target = new URL(appInteractionsUrl);
  const queue = pageUrls.map((url, i) => ({ url, i }));
  const sendOne = async ({ url, i }: { url: string; i: number }) => {
    const body = JSON.stringify(guildSlashCommand({ applicationId: BENCH_APPLICATION_ID, guildId, name: 'save', options: [{ name: 'url', value: url }], sequence: i, tokenPrefix: 'save' }));
    const answer = await postSignedInteraction(target, signInteraction(keys, body), { agent, readType: true }).catch(() => ({ status: 0, type: undefined }));
    const status = answer.status === 200 && answer.type === 5 ? 200 : answer.status;
    if (status === 200) acknowledged++;
    else refused++;
  };
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await sendOne(next);
    }),
  );
  agent.destroy();
  return { acknowledged, refused, ms: Date.now() - started };
}

export async function sinkSaves(port: number): Promise<SinkSaves> {
  return ((await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as { saves: SinkSaves }).saves;
}

/** Waits until every save ended (saved, failed, or still indexing past the reply's wait). */
export async function waitForSaves(port: number, total: number, timeoutMs: number): Promise<SinkSaves> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const saves = await sinkSaves(port);
    if (saves.saved + saves.failed + saves.stillIndexing + saves.other >= total || Date.now() > until) return saves;
    await new Promise((r) => setTimeout(r, 500));
  }
}
