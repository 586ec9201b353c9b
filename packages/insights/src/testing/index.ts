export { insertQuestions, type SeedQuestion } from './seed-telemetry.ts';
export { insertSources, type SeedSource, type SeededSource } from './seed-sources.ts';
export { syntheticQuestions } from './synthetic-questions.ts';
