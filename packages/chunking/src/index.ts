import type {} from './error-codes.ts';
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
export {
  chunkConversation,
  conversationChunkingVersion,
  CONVERSATION_ANCHOR_EVERY,
  DEFAULT_CONVERSATION_MAX_TOKENS,
  messageHeader,
  type ConversationChunk,
  type ConversationMessage,
  type MessageSpan,
} from './chunk-conversation.ts';
