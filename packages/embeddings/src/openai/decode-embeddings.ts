import { AppError } from '@brain/errors';

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
}

/**
 * Reads the vectors of one response in input order. They are requested as base64 (a quarter of
 * the JSON size of floats); a compatible server that ignores `encoding_format` and sends floats
 * is read too. Every vector must be `dimensions` long, finite and not all zeros.
 */
export function decodeEmbeddings(response: EmbeddingsResponse, expected: number, context: { model: string; dimensions: number }): number[][] {
  const data = response.data ?? [];
  const vectors: (number[] | undefined)[] = new Array<number[] | undefined>(expected);
  for (const item of data) {
    const index = item.index;
    if (typeof index !== 'number' || index < 0 || index >= expected || vectors[index] !== undefined) {
      throw invalid(context, `an item has index ${String(index)} (inputs: ${expected})`);
    }
    vectors[index] = toNumbers(item.embedding, context);
  }
  if (data.length !== expected) throw invalid(context, `${data.length} vectors for ${expected} inputs`);
  return vectors.map((vector) => {
    const v = vector as number[];
    if (v.length !== context.dimensions) {
      throw new AppError({
        code: 'EMBEDDING_DIMENSION_MISMATCH',
        message: `The embedding model "${context.model}" returned vectors of ${v.length} dimensions; the chunks table stores ${context.dimensions}.`,
        userMessage: 'The configured embedding model returns vectors of the wrong size.',
        nextStep: `Set EMBEDDING_MODEL to a model that returns ${context.dimensions} dimensions (text-embedding-3-small or -large, which accept dimensions=${context.dimensions}, or text-embedding-ada-002), or unset it to use the built-in local embedder.`,
        httpStatus: 502,
        details: { model: context.model, received: v.length, expected: context.dimensions },
      });
    }
    let norm = 0;
    for (const x of v) {
      if (!Number.isFinite(x)) throw invalid(context, 'a vector has a component that is not a finite number');
      norm += x * x;
    }
    if (norm === 0) throw invalid(context, 'a vector is all zeros (cosine similarity with it is undefined)');
    return v;
  });
}

function toNumbers(embedding: unknown, context: { model: string }): number[] {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) throw invalid(context, 'a base64 vector is not a whole number of float32 values');
    const out = new Array<number>(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  if (Array.isArray(embedding) && embedding.every((x) => typeof x === 'number')) return embedding;
  throw invalid(context, 'a vector is neither base64 nor an array of numbers');
}

function invalid(context: { model: string }, what: string): AppError {
  return new AppError({
    code: 'EMBEDDING_RESPONSE_INVALID',
    message: `The embedding provider's answer for model "${context.model}" is malformed: ${what}.`,
    userMessage: 'The embedding service sent an answer we cannot read.',
    nextStep: 'Check that OPENAI_BASE_URL points at an OpenAI-compatible /v1 endpoint.',
    httpStatus: 502,
  });
}
