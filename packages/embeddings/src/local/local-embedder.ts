import type { Embedder } from '../embedder.ts';
import { CONCEPTS, STATUS_CONCEPT } from './concepts.ts';
import { FeatureCounts } from './feature-counts.ts';
import { FNV_OFFSET, fnvStep, fnvString, mix } from './feature-hash.ts';
import { stemmer as porterStem } from 'stemmer';
import { STOPWORDS } from './stopwords.ts';
import { tokenize } from './tokenize.ts';
import { stemRarity } from './word-rarity.ts';

/** The built-in model a new database uses; local-hash-v1 stays selectable (EMBEDDING_MODEL) and is kept by databases that hold it. */
export const LOCAL_EMBEDDING_MODEL: LocalModel = 'local-hash-v2';
export const LOCAL_EMBEDDING_MODELS = ['local-hash-v1', 'local-hash-v2'] as const;
export type LocalModel = (typeof LOCAL_EMBEDDING_MODELS)[number];
export const LOCAL_EMBEDDING_DIMENSIONS = 1536;

/*
 * local-hash-v1: a deterministic bag-of-features embedder (its only dependency is the stemmer).
 *
 * text → NFKC, identifiers kept whole and split into words (tokenize.ts) → lower case → stopwords
 * dropped → Porter stems. Features, each with a fixed weight:
 *   - the stem of every word (1.0);
 *   - every identifier as written, e.g. "reply.send", "fst_err_ctp_invalid_media_type" (1.0);
 *   - the pair of consecutive stems, e.g. "configur logger" (0.25);
 *   - the concept of each stem in a small software thesaurus, e.g. stop/close/shutdown, and of
 *     numbers that look like HTTP status codes (1.0: a listed synonym counts as much as the word,
 *     and the word itself still wins, having both);
 *   - character 3-, 4- and 5-grams of each word with boundary marks, "<log", "logg" … (0.12–0.18).
 * A feature counted c times weighs weight × (1 + ln c). Every feature is hashed (FNV-1a, mixed)
 * to one of 1536 buckets with a hashed sign, so collisions cancel out on average instead of
 * piling up; the vector is then L2-normalised, so a dot product is the cosine.
 *
 * What it matches: shared words, whatever their form ("configured" ~ "configuration"); identifiers
 * and their parts ("setErrorHandler" ~ "set the error handler"); near spellings and shared
 * word pieces through the character n-grams ("logger" ~ "logging", "serialiser" ~ "serializer",
 * typos of one letter in long words); the listed synonyms ("stop the server" ~ "close the instance").
 * What it cannot match: synonyms outside its table, paraphrases that share no word ("make it
 * quicker" ~ "performance tuning" only through the table), another language, word order and
 * negation ("enable" ~ "do not enable"), or meaning in general. Scores are lower than a neural
 * model's: an unrelated pair is near 0, a relevant passage usually 0.2–0.5 (median 0.36 on the
 * tuning set in bench/, never under the default 0.15 threshold there).
 * The weights were chosen on that set (bench/fastify-questions.ts); changing any of them, the
 * thesaurus, the stopwords or the tokenizer changes every vector: give it a new model name.
 * Empty or stopword-only text: the stopwords themselves are used; text without any letter or
 * digit gets one fixed vector. It never returns a zero vector (cosine with one is undefined).
 *
 * local-hash-v2: the same features, each word's scaled by how rare its stem is in spoken English
 * (word-rarity.ts, scale 5000; every form of a stem weighs alike): "program", "two", "make" count
 * for about a third of "permutation" or an identifier. v1 weighed every word alike, so a passage sharing a question's everyday words
 * could outrank the one sharing its one telling word. It still bridges no vocabulary: a
 * paraphrase that shares no word with its answer is missed by both. Chosen on the tune halves of
 * both eval sets (scales 1000 and 5000; a heading counted twice was tried too and dropped), see
 * the retrieval docs.
 */
const DIMENSIONS = LOCAL_EMBEDDING_DIMENSIONS;

const enum Kind {
  Word = 0,
  Identifier = 1,
  Bigram = 2,
  Concept = 3,
  Gram3 = 4,
  Gram4 = 5,
  Gram5 = 6,
  Empty = 7,
}

interface Recipe {
  /** Per feature kind, in Kind's order. */
  weights: readonly number[];
  /** stemRarity's scale; 0 weighs every word 1. */
  rarityScale: number;
}

const RECIPES: Record<LocalModel, Recipe> = {
  'local-hash-v1': { weights: [1.0, 1.0, 0.25, 1.0, 0.12, 0.15, 0.18, 1.0], rarityScale: 0 },
  'local-hash-v2': {
    weights: [1.0, 1.0, 0.25, 1.0, 0.12, 0.15, 0.18, 1.0],
    rarityScale: 5000,
  },
};
const SEEDS: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => fnvStep(FNV_OFFSET, 0xfff0 + k));
/** Character n-grams of words longer than this are skipped: such words are data, not language. */
const MAX_GRAM_WORD = 40;
const STEM_CACHE_LIMIT = 50_000;
const HTTP_STATUS = /^[1-5]\d\d$/;


/** The embedders createLocalEmbedder made, and their model: what an ingestion thread may compute in their place. */
const madeLocally = new WeakMap<Embedder, LocalModel>();

/**
 * The local model an embedder computes when it is exactly one of createLocalEmbedder's (so the
 * same pure function may run on another thread), else undefined: a wrapper (one that counts,
 * caches or logs) keeps its own behaviour and is never swapped out.
 */
export function localModelOf(embedder: Embedder): LocalModel | undefined {
  return madeLocally.get(embedder);
}

export function createLocalEmbedder(model: LocalModel = LOCAL_EMBEDDING_MODEL): Embedder {
  const recipe = RECIPES[model];
  const embedder: Embedder = {
    model,
    dimensions: DIMENSIONS,
    async embed(texts, options) {
      const out: number[][] = [];
      for (const text of texts) {
        options?.signal?.throwIfAborted();
        const vector = embedWith(recipe, text);
        // A plain loop: Array.from walks a typed array through its iterator, several times slower.
        const plain = new Array<number>(vector.length);
        for (let i = 0; i < vector.length; i++) plain[i] = vector[i] as number;
        out.push(plain);
      }
      return out;
    },
  };
  madeLocally.set(embedder, model);
  return embedder;
}

/** One text → its unit vector (Float64Array of 1536) under one model. Pure and deterministic. */
export function embedLocally(text: string, model: LocalModel = LOCAL_EMBEDDING_MODEL): Float64Array {
  return embedWith(RECIPES[model], text);
}

function embedWith(recipe: Recipe, text: string): Float64Array {
  addText(recipe, text);
  if (counts.size === 0) counts.add(mix(SEEDS[Kind.Empty] as number), Kind.Empty);

  const vector = new Float64Array(DIMENSIONS);
  counts.drain((key, kind, count, weight) => {
    const value = (recipe.weights[kind] as number) * weight * (1 + Math.log(count));
    // Bucket from the upper 31 bits, sign from the lowest: independent bits of a mixed hash.
    const bucket = (key >>> 1) % DIMENSIONS;
    vector[bucket] = (vector[bucket] as number) + (key & 1 ? -value : value);
  });
  let norm = 0;
  for (let i = 0; i < DIMENSIONS; i++) norm += (vector[i] as number) ** 2;
  norm = Math.sqrt(norm);
  // Only exact cancellation in every bucket could give 0; fall back to the empty vector then.
  if (norm === 0) return embedWith(recipe, '');
  for (let i = 0; i < DIMENSIONS; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}

function addText(recipe: Recipe, text: string): void {
  const { words, identifiers } = tokenize(text);
  const content = words.filter((w) => !STOPWORDS.has(w));
  // Stopword-only text ("how do I?") still deserves a vector that reflects its words.
  const used = content.length > 0 ? content : words;

  let previousStem: string | undefined;
  let previousWeight = 1;
  for (const word of used) {
    const stem = stemOf(word);
    const weight = recipe.rarityScale > 0 ? stemRarity(stem, recipe.rarityScale) : 1;
    counts.add(mix(fnvString(SEEDS[Kind.Word] as number, stem)), Kind.Word, weight);
    if (previousStem !== undefined) {
      const h = fnvString(fnvStep(fnvString(SEEDS[Kind.Bigram] as number, previousStem), 0x20), stem);
      counts.add(mix(h), Kind.Bigram, Math.max(weight, previousWeight));
    }
    previousStem = stem;
    previousWeight = weight;
    const concepts = CONCEPTS.get(stem);
    if (concepts) for (const id of concepts) counts.add(mix(fnvStep(SEEDS[Kind.Concept] as number, id)), Kind.Concept, weight);
    else if (HTTP_STATUS.test(word)) counts.add(mix(fnvStep(SEEDS[Kind.Concept] as number, STATUS_CONCEPT)), Kind.Concept, weight);
    if (word.length <= MAX_GRAM_WORD) addCharGrams(word, weight);
  }
  for (const identifier of identifiers) counts.add(mix(fnvString(SEEDS[Kind.Identifier] as number, identifier)), Kind.Identifier);
}

/** "<word>" → its 3-, 4- and 5-grams, hashed from the word in place. */
function addCharGrams(word: string, weight: number): void {
  const marked = `<${word}>`;
  for (let start = 0; start + 3 <= marked.length; start++) {
    for (let n = 3; n <= 5 && start + n <= marked.length; n++) {
      const kind = n === 3 ? Kind.Gram3 : n === 4 ? Kind.Gram4 : Kind.Gram5;
      counts.add(mix(fnvString(SEEDS[kind] as number, marked, start, start + n)), kind, weight);
    }
  }
}

// One table for the module: embedding is synchronous, so no two texts share it at once.
const counts = new FeatureCounts();
const stems = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = porterStem(word);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}
