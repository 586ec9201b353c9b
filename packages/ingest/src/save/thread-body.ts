import { AppError } from '@brain/errors';
import type { ConversationMessageInput } from '../pipeline/ingest-services.ts';

/** How a saved thread's messages are stored (artifact_sources.body_text), for the worker to chunk. */
export const THREAD_BODY_MIME_TYPE = 'application/vnd.brain.discord-thread+json';

export interface ThreadBody {
  version: 1;
  /** Stored as the chunker takes them; attachments are file names only (their URLs expire). */
  messages: ConversationMessageInput[];
}

export function parseThreadBody(text: string): ThreadBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = parsed as Partial<ThreadBody> | undefined;
  if (!body || body.version !== 1 || !Array.isArray(body.messages)) {
    throw new AppError({
      code: 'THREAD_BODY_INVALID',
      message: 'A saved thread’s stored messages are not in the expected format.',
      userMessage: 'The stored copy of that thread could not be read.',
      nextStep: 'Save the thread again with “Save thread to brain”.',
    });
  }
  return body as ThreadBody;
}
