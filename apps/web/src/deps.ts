import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';

/** Everything the web service needs, built once by the composition root (apps/cli). */
export interface WebDeps {
  config: BrainConfig;
  db: Database;
  logger: Logger;
}
