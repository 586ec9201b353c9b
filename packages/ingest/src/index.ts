export { saveSource, type SaveRequest, type SaveResult, type SavedArtifact } from './save/save-source.ts';
export { normalizeUrl } from './save/normalize-url.ts';
export { MAX_SOURCE_BYTES, SAVEABLE_MIME_TYPES, mimeTypeForFileName, type DiscordAttachment, type SourceInput } from './save/source-input.ts';
export type { SkippedAttachment } from './save/validate-source.ts';
