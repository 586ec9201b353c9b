import type { BrainConfig } from '@brain/config';
import type { DiscordSurface } from '@brain/discord';
import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import type { PlaygroundDeps } from './routes/playground/playground-route.ts';

/** Everything the web service needs, built once by the composition root (apps/cli). */
export interface WebDeps {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  /** POST /interactions; undefined when neither Discord nor the playground is configured (503). */
  discord?: DiscordSurface | undefined;
  /** The local playground (/playground); undefined when it is off. */
  playground?: PlaygroundDeps | undefined;
}
