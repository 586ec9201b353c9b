import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { badResponse, tooLarge } from './fetch-errors.ts';

// A real server applies one encoding; two is already odd. undici allows five; we need fewer.
const MAX_ENCODINGS = 2;

/**
 * Reads a response body into memory, decoding Content-Encoding on the way, and stops the moment
 * the DECODED size passes `maxBytes`: a 100 KB gzip bomb that inflates to a gigabyte costs one
 * zlib window and at most `maxBytes` of buffers, never the whole expansion.
 */
export async function readBody(response: IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes, { declaredBytes: declared, url });
  }

  const decoders = decodersFor(response.headers['content-encoding'], url);
  let stream: Readable = response;
  for (const decoder of decoders) stream = stream.pipe(decoder);
  // pipe() does not forward errors: surface the response's own errors (resets) through the chain.
  response.on('error', (error) => stream.destroy(error));

  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      received += buffer.length;
      if (received > maxBytes) throw tooLarge(maxBytes, { receivedBytes: received, url, encoded: decoders.length > 0 });
      chunks.push(buffer);
    }
  } catch (error) {
    if (isZlibError(error)) throw badResponse(url, 'the compressed body is corrupt', error);
    throw error;
  } finally {
    response.destroy();
    for (const decoder of decoders) decoder.destroy();
  }
  return Buffer.concat(chunks, received);
}

function decodersFor(header: string | undefined, url: string): Transform[] {
  const encodings = (header ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  if (encodings.length > MAX_ENCODINGS) throw badResponse(url, `${encodings.length} stacked content encodings`);
  // Encodings are listed in the order they were applied, so they are undone from the last.
  return encodings.reverse().map((encoding) => {
    switch (encoding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip();
      case 'deflate':
        return zlib.createInflate();
      case 'br':
        return zlib.createBrotliDecompress();
      default:
        throw badResponse(url, `unsupported content encoding "${encoding}"`);
    }
  });
}

function isZlibError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1');
}
