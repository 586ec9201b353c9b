import { coerceError } from '@brain/errors';
import { extractError, serializeError } from '../extract-errors.ts';
import { extractHtml } from '../html/extract-html.ts';
import { extractPdf } from '../pdf/extract-pdf.ts';
import type { JobMessage, SandboxMessage } from './protocol.ts';

/**
 * The sandbox process: receives one document at a time over IPC, parses it, answers. It holds
 * no secrets (its environment is empty), no database and no network client; if a hostile
 * document takes it over or blows its limits, the parent kills it and starts another.
 */
function send(message: SandboxMessage): void {
  process.send?.(message);
}

async function handle(job: JobMessage): Promise<void> {
  try {
    // IPC hands over a plain Uint8Array; the parsers want a Buffer view of the same bytes.
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    const document = job.kind === 'pdf' ? await extractPdf(bytes, job.limits) : extractHtml({ bytes, url: job.url, charset: job.charset }, job.limits);
    send({ type: 'result', id: job.id, document });
  } catch (error) {
    const known = coerceError(error);
    const reported =
      known.code === 'INTERNAL'
        ? extractError('EXTRACT_FAILED', {
            message: `Parser failed: ${known.message}`,
            userMessage: `That ${job.kind === 'pdf' ? 'PDF' : 'page'} could not be read.`,
            nextStep: 'Save its text instead, or a different copy of the file.',
            details: { error: known.message.slice(0, 500) },
          })
        : known;
    send({ type: 'error', id: job.id, error: serializeError(reported) });
  }
}

process.on('message', (message: JobMessage) => {
  if (message.type === 'job') void handle(message);
});
// The parent going away (crash, kill) must not leave an orphan parser behind.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
