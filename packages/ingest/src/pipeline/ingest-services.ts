import type { Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import type { Logger } from '@brain/observability';

/** A fetched URL (see @brain/fetch); `notModified` when a conditional request got a 304. */
export interface FetchedDocument {
  url: string;
  contentType: string;
  charset?: string | undefined;
  body: Buffer;
  etag?: string | null | undefined;
  lastModified?: string | null | undefined;
  notModified: boolean;
}

export interface ExtractedDocument {
  title: string | null;
  text: string;
}

export interface ChunkPiece {
  ordinal: number;
  heading: string | null;
  content: string;
  contentHash: string;
  tokenCount: number;
  /** Conversation sources: which range of content comes from which message (chunks.message_spans). */
  messageSpans?: MessageSpan[] | null | undefined;
}

export interface MessageSpan {
  start: number;
  end: number;
  messageId: string;
  url: string;
}

/** One message of a saved conversation, as @brain/chunking's chunkConversation takes it. */
export interface ConversationMessageInput {
  id: string;
  url: string;
  author: string;
  at: string;
  content: string;
  replyTo: string | null;
  attachments: string[];
}

/**
 * What indexing needs from the outside, as narrow functions: the composition root (apps/cli)
 * builds them from @brain/fetch, @brain/extract, @brain/chunking and @brain/embeddings.
 */
export interface IngestServices {
  db: Database;
  embedder: Embedder;
  fetchUrl(url: string, options: { ifNoneMatch?: string | undefined; ifModifiedSince?: string | undefined; signal?: AbortSignal | undefined }): Promise<FetchedDocument>;
  extract(input: {
    bytes: Buffer;
    mimeType: string;
    charset?: string | undefined;
    url?: string | undefined;
    fileName?: string | undefined;
  }): Promise<ExtractedDocument>;
  /** Pure; may run on another thread (createIngestCpuThreads), hence the promise. */
  chunk(document: { title: string; text: string }): ChunkPiece[] | Promise<ChunkPiece[]>;
  /**
   * Passages of a conversation (a Discord thread) along message boundaries, each with its
   * message spans. Optional so surfaces that never index threads need not wire it; a thread job
   * without it fails with a reason instead of being chunked as plain text.
   */
  chunkConversation?(conversation: { title: string; messages: ConversationMessageInput[] }): ChunkPiece[] | Promise<ChunkPiece[]>;
  /** Bumped when conversation chunking changes. */
  conversationChunkingVersion?: string;
  /** The exact text embedded for a chunk (heading + content), the same on every path. */
  textForEmbedding(chunk: ChunkPiece): string;
  /** Bumped when chunking changes, so unchanged content is still re-chunked once. */
  chunkingVersion: string;
  logger: Logger;
  /**
   * One pass of a /sync channel job (@brain/discord's syncChannel with the bot token's history
   * reader). Absent without DISCORD_BOT_TOKEN: such a job then fails with what to configure.
   */
  syncDiscordChannel?(job: { id: string; workspaceId: string; payload: Record<string, unknown> }, signal: AbortSignal): Promise<unknown>;
}
