/** Test helpers for MCP suites (this package's and apps/web's): indexing text through the real pipeline, in-process clients. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chunkDocument, chunkingVersion, textForEmbedding } from '@brain/chunking';
import type { Database } from '@brain/db';
import { createLocalEmbedder } from '@brain/embeddings';
import { claimJobs, indexArtifact, saveSource, type IngestServices } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { createBrainMcpServer, type McpCaller, type McpDeps } from '../index.ts';

export const logger = createLogger({ level: 'silent' });
export const embedder = createLocalEmbedder();

/** The worker's real pipeline for text sources (no network, no extraction sandbox needed). */
function ingestServices(db: Database): IngestServices {
  return {
    db,
    embedder,
    logger,
    fetchUrl: () => Promise.reject(new Error('tests save text only')),
    extract: async ({ bytes }) => ({ title: null, text: bytes.toString('utf8') }),
    chunk: (document) => chunkDocument(document),
    textForEmbedding: (chunk) => textForEmbedding({ heading: chunk.heading ?? '', content: chunk.content }),
    chunkingVersion,
  };
}

/**
 * Saves text as any surface does, then claims its job and runs the ingest task on it as a worker
 * would (the worker is an app, which packages do not import).
 */
export async function saveAndIndex(db: Database, workspaceId: string, title: string, text: string): Promise<string> {
  const saved = await saveSource(db, { workspaceId, input: { kind: 'text', text, title }, savedBy: 'test' });
  const artifactId = saved.artifacts[0]?.artifactId as string;
  const workerId = 'mcp-testing';
  const [job] = await claimJobs(db, { workerId, limit: 1, leaseMs: 60_000, artifactIds: [artifactId] });
  if (!job) throw new Error(`no runnable job for artifact ${artifactId}`);
  await indexArtifact(ingestServices(db), job, workerId, AbortSignal.timeout(60_000));
  return artifactId;
}

export function mcpDeps(db: Database, extra: Partial<McpDeps> = {}): McpDeps {
  return { db, embedder, logger, saveOptions: {}, checkEntitlement: async () => ({ allowed: true }), ...extra };
}

/** An SDK client talking to a server for `caller`, in process. */
export async function connect(deps: McpDeps, caller: McpCaller): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createBrainMcpServer(deps, async () => caller);
  const client = new Client({ name: 'contract-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // Listing the tools makes the client validate every structuredContent against its tool's outputSchema.
  await client.listTools();
  return client;
}

/**
 * Calls a tool. A success has been validated against the tool's outputSchema twice, by the
 * server (else it would be an isError result) and by the client (else callTool throws).
 */
export async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: T }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError && result.structuredContent === undefined) throw new Error(`${name} succeeded without structuredContent`);
  return result as CallToolResult & { structuredContent: T };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export { createWorkspace } from '@brain/db/testing';
export { INITIALIZE, rawSession, stdioSession, type RawReply } from './raw.ts';
export { inspectorUnavailable, runInspector, type InspectorRun } from './inspector.ts';
