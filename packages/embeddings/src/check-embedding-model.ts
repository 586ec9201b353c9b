import { AppError } from '@brain/errors';
import { withService, type Database } from '@brain/db';

export interface EmbeddingModelCount {
  model: string;
  chunks: number;
}

/**
 * Startup check: every embedded passage must come from the configured model, since vectors of two
 * models live in different spaces and comparing them gives meaningless scores. Reads every
 * workspace (as service_role), so it runs once at startup, not per request. An empty database
 * passes. Returns what it found; throws EMBEDDING_MODEL_MISMATCH naming both models otherwise.
 */
export async function checkEmbeddingModel(db: Database, configuredModel: string): Promise<EmbeddingModelCount[]> {
  const found = await storedEmbeddingModels(db);
  const others = found.filter((row) => row.model !== configuredModel);
  if (others.length === 0) return found;

  const matching = found.find((row) => row.model === configuredModel)?.chunks ?? 0;
  const described = others.map((row) => `${row.chunks.toLocaleString('en-US')} with ${row.model}`).join(', ');
  throw new AppError({
    code: 'EMBEDDING_MODEL_MISMATCH',
    message:
      `The database holds passages embedded with another model than the configured one (${configuredModel}): ${described}` +
      `${matching > 0 ? `, and ${matching.toLocaleString('en-US')} with ${configuredModel}` : ''}. Their vectors cannot be compared.`,
    userMessage: `Search is unavailable: stored passages were embedded with ${others[0]?.model ?? 'another model'}, not ${configuredModel}.`,
    nextStep: `Run \`brain reembed\` to re-embed every passage with ${configuredModel} in the background (answers keep using the old vectors until each source is re-embedded), or set EMBEDDING_MODEL back to ${others[0]?.model ?? 'the previous model'}.`,
    details: { configured: configuredModel, found },
  });
}

/** Embedded passages per model, across every workspace (as service_role), the commonest first. */
export async function storedEmbeddingModels(db: Database): Promise<EmbeddingModelCount[]> {
  return withService(db, (tx) =>
    tx.query<{ model: string; chunks: number }>(
      `select embedding_model as model, count(*)::int as chunks
       from public.chunks
       where embedding_model is not null
       group by embedding_model
       order by count(*) desc, embedding_model`,
    ),
  );
}
