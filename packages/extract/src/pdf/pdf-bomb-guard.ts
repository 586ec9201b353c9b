import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { extractError } from '../extract-errors.ts';

const STREAM_KEYWORD = /stream\r?\n/g;
// How far back from `stream` a stream's dictionary may start. Real dictionaries are far shorter.
const DICTIONARY_WINDOW = 4096;
const MAX_FILTER_LAYERS = 4;

class Exceeded extends Error {}

/**
 * pdf.js inflates a content stream into one growing buffer and offers no cap, and ArrayBuffers
 * sit outside V8's heap limit, so a 1 KB PDF can ask for gigabytes before any watchdog looks.
 * This pass inflates every Flate-encoded stream the text extractor could read — content,
 * object and form streams, not images, which text extraction never decodes — into a byte
 * counter (constant memory), and refuses the file once the total passes `budget`.
 *
 * It is a guard, not a parser: streams it cannot decode (encrypted ones, other filters) are
 * left to pdf.js, whose memory and time the sandbox caps anyway.
 */
export async function guardPdfStreams(bytes: Uint8Array, budget: number): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const start = match.index;
    if (text.slice(start - 3, start) === 'end') continue; // `endstream` closes a stream, it opens none
    const dictionary = text.slice(Math.max(0, start - DICTIONARY_WINDOW), start);
    const head = dictionary.lastIndexOf(' obj');
    const dict = head >= 0 ? dictionary.slice(head) : dictionary;
    if (!/>>\s*$/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    const layers = flateLayers(dict);
    if (layers === 0) continue;
    const dataStart = start + match[0].length;
    const end = text.indexOf('endstream', dataStart);
    if (end < 0) continue;
    const data = Buffer.from(bytes.buffer, bytes.byteOffset + dataStart, end - dataStart);
    total += await inflatedSize(data, Math.min(layers, MAX_FILTER_LAYERS), budget - total);
    if (total > budget) {
      const mb = Math.round(budget / (1024 * 1024));
      throw extractError('EXTRACT_TOO_LARGE', {
        message: `PDF streams inflate past ${budget} bytes (a decompression bomb, or far more than text needs)`,
        userMessage: `That PDF expands to more than ${mb} MB when decompressed, more than can be read safely.`,
        nextStep: 'Save a smaller PDF, or paste its text.',
        details: { limitBytes: budget, inflatedBytes: total },
      });
    }
  }
}

function flateLayers(dict: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1];
  if (!filter) return 0;
  return filter.match(/\/FlateDecode\b|\/Fl\b/g)?.length ?? 0;
}

/** Bytes out of `layers` rounds of inflate, stopping just past `remaining`. */
async function inflatedSize(data: Buffer, layers: number, remaining: number): Promise<number> {
  let counted = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      counted += chunk.length;
      callback(counted > remaining ? new Exceeded() : null);
    },
  });
  const inflaters = Array.from({ length: layers }, () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  try {
    await pipeline([Readable.from([data]), ...inflaters, counter]);
  } catch (error) {
    // Over budget: report the count. Corrupt or encrypted data: pdf.js will judge it.
    if (!(error instanceof Exceeded)) return counted;
  }
  return counted;
}
