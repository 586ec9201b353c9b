import { checkEmbeddingModel } from '@brain/embeddings';
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
    const model = ctx.config.embedding.model;
    try {
      const found = await checkEmbeddingModel(ctx.db, model);
      const chunks = found.reduce((n, row) => n + row.chunks, 0);
      return pass(chunks === 0 ? `no passages embedded yet; ${model} will be recorded` : `${chunks.toLocaleString('en-US')} passage(s), all ${model}`);
    } catch (error) {
      return failWith(error, 'Run `brain reembed`, or set EMBEDDING_MODEL back to the recorded model.');
    }
  },
};
