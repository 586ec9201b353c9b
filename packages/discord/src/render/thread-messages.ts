import type { SavedArtifact, SkippedAttachment } from '@brain/ingest';
import type { ArtifactProgress } from '../queries/load-artifact-progress.ts';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { notice } from './notice.ts';
import { saveResultMessage } from './save-messages.ts';
import { inert, noPreview, oneLine, truncate } from './text.ts';

const title = (name: string) => `*${inert(truncate(oneLine(name), 120))}*`;
const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** "Save thread to brain" while it reads the history: Discord's count when known, else how far it got. */
export function readingThreadMessage(name: string, expected: number | null, read: number): OutgoingMessage {
  if (expected !== null && expected > 0) return notice(`📖 Reading ${count(Math.max(expected, read), 'message')} of ${title(name)}…`);
  return notice(read > 0 ? `📖 Reading ${title(name)}… ${count(read, 'message')} so far` : `📖 Reading ${title(name)}…`);
}

/** Between reading and the worker's result. */
export function indexingThreadMessage(name: string, messages: number): OutgoingMessage {
  return notice(`⏳ Indexing ${title(name)} — ${count(messages, 'message')}…`);
}

/**
 * The last edit: "Saved *Thread* — 240 messages, 31 passages", or why not; its attachments
 * (sources of their own) below, as /save reports them.
 */
export function savedThreadMessage(input: {
  artifacts: SavedArtifact[];
  progress: ArtifactProgress[];
  skipped: SkippedAttachment[];
  messages: number;
  savedAtMs: number;
}): OutgoingMessage {
  const byId = new Map(input.progress.map((p) => [p.id, p]));
  const [thread, ...files] = input.artifacts;
  const p = thread ? byId.get(thread.artifactId) : undefined;
  const name = p?.title ?? thread?.title ?? 'Discord thread';
  const link = thread?.url ? ` · ${noPreview(thread.url)}` : '';
  let line: string;
  if (!p) line = `⏳ ${title(name)} (${count(input.messages, 'message')}) is still indexing. \`/sources\` shows when it is ready.${link}`;
  else if (p.status === 'failed' && !p.pending) {
    line = `❌ Couldn't save ${title(name)}: ${inert(oneLine(p.errorMessage ?? 'unknown reason'))}${p.errorCode ? ` (\`${p.errorCode}\`)` : ''}`;
  } else if (p.status === 'ready' && !p.pending) line = `✅ Saved ${title(name)} — ${count(input.messages, 'message')}, ${count(p.passages, 'passage')}${link}`;
  else line = `⏳ ${title(name)} (${count(input.messages, 'message')}) is still indexing (${p.status}). \`/sources\` shows when it is ready.${link}`;

  const rest = files.flatMap((f) => byId.get(f.artifactId) ?? []);
  const more = rest.length > 0 || input.skipped.length > 0 ? `\n${saveResultMessage(rest, input.skipped, input.savedAtMs).content}` : '';
  return notice(`${line}${more}`);
}
