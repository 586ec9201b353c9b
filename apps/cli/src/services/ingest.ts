import type { BrainConfig } from '@brain/config';
import { chunkingVersion, conversationChunkingVersion, textForEmbedding } from '@brain/chunking';
import type { Database } from '@brain/db';
import { createSyncRunner, type DiscordHistory } from '@brain/discord';
import { localModelOf } from '@brain/embeddings';
import { createExtractor, neutralizeMentions } from '@brain/extract';
import { checkFetchable, safeFetch } from '@brain/fetch';
import { createIngestCpuThreads, type IngestServices, type SaveOptions } from '@brain/ingest';
import type { Logger } from '@brain/observability';
import { sandboxEnvironment } from '../context.ts';
import { buildEmbedder } from './embedder.ts';
import { syncGuildFacts, syncHistory } from './sync-history.ts';

export interface IngestRuntime {
  services: IngestServices;
  /** What every surface passes to saveSource. */
  saveOptions: SaveOptions;
  /** Stops the extraction sandboxes and the ingestion threads. */
  close(): Promise<void>;
  /** The ingestion threads started so far (lazily, on the first chunk or local embedding). */
  readonly threads: { readonly started: number; readonly crashed: number };
}

export { buildEmbedder };

/** What every surface passes to saveSource: a URL the fetcher would refuse is refused before anything is written. */
export function buildSaveOptions(config: BrainConfig): SaveOptions {
  return {
    checkUrl: async (url) => {
      await checkFetchable(url, { allowPrivateHosts: config.allowPrivateHosts });
    },
  };
}

/** Wires fetch → extract → chunk → embed for the worker, from the configuration. */
export function buildIngestRuntime(
  config: BrainConfig,
  db: Database,
  logger: Logger,
  embedder = buildEmbedder(config, logger),
  /** The playground's pretend server, when it runs in this process: its channels sync from it. */
  pretendHistory?: DiscordHistory,
): IngestRuntime {
  const extractor = createExtractor({ env: sandboxEnvironment() });
  const history = syncHistory(config, pretendHistory);
  const allowPrivateHosts = config.allowPrivateHosts;
  // Chunking and the local embedder run on a thread of their own (the same functions, so the same
  // output), in every mode: `brain start` acknowledges Discord's interactions on this thread, with
  // PGlite or PostgreSQL alike, and a lone `brain worker` keeps renewing its leases and hearing
  // NOTIFY while a 20 MB PDF is chunked. The thread starts on first use.
  const local = localModelOf(embedder);
  const cpu = createIngestCpuThreads({ logger: logger.child({ component: 'ingest-thread' }), ...(local ? { model: local } : {}) });
  return {
    services: {
      db,
      // Only the local embedder itself moves to the thread (the thread computes that one model); a
      // wrapper around it, or any other embedder, keeps running as given.
      embedder: local ? cpu.embedder : embedder,
      logger,
      async fetchUrl(url, options) {
        const fetched = await safeFetch(url, {
          allowPrivateHosts,
          timeoutMs: config.worker.fetchTimeoutMs,
          ...(options.ifNoneMatch ? { ifNoneMatch: options.ifNoneMatch } : {}),
          ...(options.ifModifiedSince ? { ifModifiedSince: options.ifModifiedSince } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        if (fetched.notModified) {
          return { url: fetched.url, contentType: '', body: Buffer.alloc(0), etag: fetched.etag, lastModified: fetched.lastModified, notModified: true };
        }
        return {
          url: fetched.url,
          contentType: fetched.contentType,
          charset: fetched.charset,
          body: fetched.body,
          etag: fetched.etag,
          lastModified: fetched.lastModified,
          notModified: false,
        };
      },
      async extract(input) {
        const document = await extractor.extract({
          bytes: input.bytes,
          mimeType: input.mimeType,
          ...(input.charset ? { charset: input.charset } : {}),
          ...(input.url ? { url: input.url } : {}),
          ...(input.fileName ? { fileName: input.fileName } : {}),
        });
        // Saved text can carry @everyone or role mentions; answers quote it, so it must never ping.
        return { title: document.title, text: neutralizeMentions(document.text) };
      },
      chunk: (document) => cpu.chunk(document),
      chunkConversation: (conversation) => cpu.chunkConversation(conversation),
      conversationChunkingVersion,
      textForEmbedding: (chunk) => textForEmbedding({ heading: chunk.heading ?? '', content: chunk.content }),
      chunkingVersion,
      ...(history ? { syncDiscordChannel: createSyncRunner(db, history, syncGuildFacts(config, db, logger)) } : {}),
    },
    saveOptions: buildSaveOptions(config),
    close: async () => {
      await extractor.close();
      await cpu.close();
    },
    threads: cpu.counters,
  };
}
