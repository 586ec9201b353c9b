import { isAppError, type AppError } from '@brain/errors';
import type { Extractor, ExtractInput, ExtractLimits } from '../../src/index.ts';

/** The AppError an extraction fails with; fails the test if it succeeds or throws anything else. */
export async function failure(extractor: Extractor, input: ExtractInput, limits?: Partial<ExtractLimits>): Promise<AppError> {
  const outcome = await extractor.extract(input, limits).then(
    (document) => ({ document }),
    (error: unknown) => ({ error }),
  );
  if ('document' in outcome) throw new Error(`expected a failure, got ${JSON.stringify(outcome.document).slice(0, 300)}`);
  if (!isAppError(outcome.error)) throw new Error(`expected an AppError, got ${String(outcome.error)}`);
  return outcome.error;
}

export const html = (markup: string): Buffer => Buffer.from(markup, 'utf8');
