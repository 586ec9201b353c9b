import type {} from './error-codes.ts';
export type { Database, Queryable, Row } from './database.ts';
export { openDatabase, type OpenDatabaseTarget, type OpenDatabaseOptions } from './open-database.ts';
export { openPglite, type PgliteDatabase, type PgliteOptions } from './open-pglite.ts';
export { connectPgliteThread, pgliteThreadPort } from './pglite-thread/open-pglite-thread.ts';
export {
  DEFAULT_HELPER_THREAD_PRIORITY,
  HELPER_THREAD_NICENESS,
  helperThreadPriority,
  SCHED_IDLE,
  setHelperThreadPriority,
  yieldToMainThread,
  yieldRuntimeThreads,
  type HelperThreadPriority,
  type ThreadYield,
  type RuntimeThreadsYield,
} from './thread-priority.ts';
export { openPostgres, type PostgresOptions } from './open-postgres.ts';
export { acquireDataDirLock, isProcessAlive, type DataDirLock } from './data-dir-lock.ts';
export { sqlState, SqlState } from './pg-error.ts';
export { withWorkspace, withService, actAsTenant, actAsService, isUuid } from './with-workspace.ts';
export { toVectorLiteral, EMBEDDING_DIMENSIONS } from './vector-literal.ts';
export { migrate, pendingMigrations, type MigrateResult } from './migrations/migrate.ts';
export { isConnectionLost, isDriverWriteAfterClose } from './migrations/connection-lost.ts';
export { splitStatements } from './migrations/split-statements.ts';
export { loadMigrations, migrationsFingerprint, defaultMigrationsDir, type Migration } from './migrations/load-migrations.ts';
export { requirePgvector, assessPgvector, versionAtLeast, MIN_PGVECTOR, type PgvectorAvailability } from './migrations/require-pgvector.ts';
export { matchArtifacts, MAX_MATCH_COUNT, type ArtifactMatch, type MatchArtifactsParams, type MatchedBy } from './queries/match-artifacts.ts';
export { ensureWorkspace, findWorkspaceBySlug, type WorkspaceRow } from './queries/ensure-workspace.ts';
export { recentRetrievalLatency, type RetrievalLatency } from './queries/recent-retrieval-latency.ts';
export {
  audienceChannelId,
  audienceKeys,
  audienceParam,
  searchAudienceParam,
  channelAudience,
  EVERYTHING,
  type AudienceFilter,
  type AudienceKey,
} from './audience/audience-filter.ts';
