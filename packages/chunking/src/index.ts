export {
  chunkDocument,
  textForEmbedding,
  chunkingVersion,
  HEADING_SEPARATOR,
  DEFAULT_MAX_TOKENS,
  DEFAULT_OVERLAP_TOKENS,
  type Chunk,
  type ChunkInput,
  type ChunkOptions,
} from './chunk-document.ts';
export { estimateTokens, lettersPerTokenOf } from './estimate-tokens.ts';
export { splitSentences } from './split-sentences.ts';
