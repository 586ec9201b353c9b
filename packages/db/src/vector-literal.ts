import { AppError } from '@brain/errors';

export const EMBEDDING_DIMENSIONS = 1536;

/** pgvector's text form, '[0.1,0.2,…]', which both drivers pass through unchanged. */
export function toVectorLiteral(values: ArrayLike<number>): string {
  if (values.length !== EMBEDDING_DIMENSIONS) {
    throw new AppError({
      code: 'EMBEDDING_DIMENSION_MISMATCH',
      message: `An embedding has ${values.length} dimensions; the chunks table stores ${EMBEDDING_DIMENSIONS}.`,
      nextStep: `Configure an embedding model that returns ${EMBEDDING_DIMENSIONS} dimensions (OpenAI text-embedding-3-small does).`,
    });
  }
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) {
      throw new AppError({ code: 'EMBEDDING_INVALID', message: `Embedding component ${i} is ${v}.` });
    }
    out += (i === 0 ? '' : ',') + v;
  }
  return out + ']';
}
