import { checkEmbeddingModel, chooseEmbeddingModel } from '@brain/embeddings';
import type { DoctorCheck } from '../check.ts';
import { failWith, needsConfig, needsDatabase, needsSchema, pass } from '../check.ts';

/** The passages in the database were embedded with the configured model (startup refuses otherwise). */
export const embeddingModelCheck: DoctorCheck = {
  id: 'embedding-model',
  title: 'Stored passages match the configured model',
  async run(ctx) {
    if (!ctx.config) return needsConfig;
    if (!ctx.db) return needsDatabase;
    if (!ctx.schemaCurrent) return needsSchema;
    try {
      // As every command chooses it: with EMBEDDING_MODEL unset, a database of an older built-in model keeps it.
      const { model, kept } = await chooseEmbeddingModel(ctx.db, ctx.config.embedding);
      const found = await checkEmbeddingModel(ctx.db, model);
      const chunks = found.reduce((n, row) => n + row.chunks, 0);
      if (kept) {
        return pass(
          `${chunks.toLocaleString('en-US')} passage(s), all ${model}, kept because EMBEDDING_MODEL is unset; new databases use ${kept.default}, and \`brain reembed\` moves this one to it`,
        );
      }
      return pass(chunks === 0 ? `no passages embedded yet; ${model} will be recorded` : `${chunks.toLocaleString('en-US')} passage(s), all ${model}`);
    } catch (error) {
      return failWith(error, 'Run `brain reembed`, or set EMBEDDING_MODEL back to the recorded model.');
    }
  },
};
