import type {} from './error-codes.ts';
export { audienceOfOrigin, type SourceOrigin } from './save/source-origin.ts';
export { saveSource, saveSourceIn, type SaveOptions, type SaveRequest, type SaveResult, type SavedArtifact } from './save/save-source.ts';
export { DEFAULT_SAVE_RATE_LIMITS, describeSeconds, enforceSaveRateLimits, type RateCounter, type RateWindow, type SaveRateLimits } from './save/save-rate-limits.ts';
export { normalizeUrl } from './save/normalize-url.ts';
export { MAX_SOURCE_BYTES, SAVEABLE_MIME_TYPES, mimeTypeForFileName, type DiscordAttachment, type SourceInput, type ThreadMessage } from './save/source-input.ts';
export type { SkippedAttachment } from './save/validate-source.ts';

export type { Job } from './queue/job.ts';
export { retryDelayMs } from './queue/job.ts';
export { claimJobs, DEFAULT_JOBS_PER_WORKSPACE, type ClaimOptions } from './queue/claim-jobs.ts';
export { renewLease } from './queue/renew-lease.ts';
export { completeJob, holdJob } from './queue/complete-job.ts';
export { failJob, type FailOutcome } from './queue/fail-job.ts';
export { releaseJob } from './queue/release-job.ts';
export { requeueExpiredJobs, type RequeueResult } from './queue/requeue-expired.ts';
export { runningJobHolders } from './queue/running-job-holders.ts';
export { enqueueStaleRefreshes } from './queue/enqueue-stale-refreshes.ts';
export { enqueueDueSyncs } from './queue/enqueue-due-syncs.ts';
export { enqueueReembed } from './queue/enqueue-reembed.ts';
export { enqueueLaggingEveryoneFlags } from './queue/enqueue-lagging-everyone-flags.ts';
export { requeueSource, type RequeueSourceResult } from './queue/requeue-source.ts';
export { queueStats, type QueueStats } from './queue/queue-stats.ts';
export { failedJobsByCode } from './queue/failed-by-code.ts';
export { databaseSnapshot } from './metrics/database-snapshot.ts';

export type { IngestServices, FetchedDocument, ExtractedDocument, ChunkPiece, ConversationMessageInput, MessageSpan } from './pipeline/ingest-services.ts';
export { THREAD_BODY_MIME_TYPE } from './save/thread-body.ts';
export { indexArtifact, type IndexOutcome } from './pipeline/index-artifact.ts';
export { reembedArtifact } from './pipeline/reembed-artifact.ts';
export { EVERYONE_FLAGS_BATCH, rewriteEveryoneFlags, type EveryoneFlagsOutcome, type RewriteEveryoneFlagsOptions } from './everyone-flags/rewrite-everyone-flags.ts';
export { createIngestCpuThreads, type IngestCpuThreads, type IngestCpuThreadsOptions } from './cpu-thread/cpu-thread-pool.ts';

export { listSources, type ListSourcesOptions, type SourcePage } from './sources/list-sources.ts';
export { getSource, sourceNotFound } from './sources/get-source.ts';
export { forgetSource, restoreSource, type ForgetReceipt } from './sources/forget-source.ts';
export { purgeForgottenSources } from './sources/purge-forgotten.ts';
export { FORGET_RETENTION_DAYS, type SourceSummary } from './sources/source-summary.ts';
