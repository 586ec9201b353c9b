import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { Signer } from '@brain/accounts';
import type { AskFunction, DeferredHandOff, DeferredRunner, DeferredWork, DiscordHistory, EntitlementCheck, InteractionDedupe } from '@brain/discord';
import type { Embedder } from '@brain/embeddings';
import type { McpDeps } from '@brain/mcp';
import type { Logger } from '@brain/observability';
import type { OnboardingDeps } from '@brain/web';
import { resolveCookieSecret } from './context.ts';
import { wireHandedOffInteractions } from './discord-wiring.ts';
import { buildBillingService, buildOnboarding } from './onboarding.ts';
import { buildAnswering, type AnswerQuestion } from './services/answering.ts';
import { startAnsweringThread, type AnsweringThread, type AnsweringThreadOptions } from './services/answering-thread/answer-on-thread.ts';
import type { InteractionSetup } from './services/answering-thread/protocol.ts';
import { buildEntitlementCheck, exceptLocalWorkspace } from './services/entitlements.ts';
import { buildEmbedder, buildIngestRuntime, type IngestRuntime } from './services/ingest.ts';
import { buildMcpDeps } from './services/mcp.ts';
import { checkEmbeddingModelAtStartup } from './services/startup-checks.ts';

/**
 * The composition root: every service a command may need, each built once from the
 * configuration, and only when a command first asks for it. A command takes what it needs; two
 * surfaces of one process therefore share one embedder, one entitlement policy and one set of
 * startup checks, and cannot drift apart.
 */
export interface Composition {
  readonly config: BrainConfig;
  readonly db: Database;
  readonly logger: Logger;
  /** Ingestion, answers, MCP and eval embed through this one, so stored and query vectors share a space. */
  readonly embedder: Embedder;
  /**
   * Refuses to go on when stored passages were embedded by another model. Every command that
   * embeds, answers or serves calls it before it starts; it runs once per process.
   */
  checkStartup(): Promise<void>;
  /**
   * fetch → extract → chunk → embed, on `embedder`. It owns the extraction sandboxes, which
   * `close` stops. `pretendHistory` (the playground's pretend server, for /sync of its channels)
   * is taken at the first call, which builds it.
   */
  ingest(pretendHistory?: DiscordHistory): IngestRuntime;
  /** The one `ask` of every surface. */
  answering(): AnswerQuestion;
  /** The answering thread, once `answering()` started one (ComposeOptions.answeringThread). */
  readonly answeringThread: AnsweringThread | undefined;
  /**
   * Settles when `answering()` can take questions without waiting: at once without a thread,
   * else when the thread is up or has given way to this one (its start is bounded). Readiness
   * waits for it, so a cold instance's first /ask does not wait for a thread still starting.
   */
  answeringReady(): Promise<void>;
  /**
   * Where the Discord surface hands a deferred real-Discord /ask over whole (entitlement, audience,
   * answer, the reply's edits): the answering thread, once `answering()` started one. Undefined
   * without it; the thread takes nothing once it has stopped, and that work runs here.
   */
  interactionHandOff(localWorkspaceId: string): ((dedupe: InteractionDedupe) => DeferredHandOff | undefined) | undefined;
  /** Install, claim and billing (the one entitlement policy lives in its billing service). */
  onboarding(): OnboardingDeps;
  /** Billing's gate for /save, /ask and MCP; `localWorkspaceId`, the operator's own, is never metered. */
  entitlementCheck(localWorkspaceId?: string): EntitlementCheck;
  /** The MCP tools' services, behind `entitlementCheck(localWorkspaceId)`. */
  mcp(localWorkspaceId?: string): McpDeps;
  /** Stops what was built (the extraction sandboxes); the database stays the command's to close. */
  close(): Promise<void>;
}

export interface ComposeOptions {
  /** Where the dev outbox prints login links: the console, or the log when stdout carries a protocol. */
  print?: (line: string) => void;
  /**
   * Answer on a thread of its own (`brain start`): the thread that acknowledges Discord's
   * interactions then does none of the answers' work. Needs the embedded database in its thread,
   * or PostgreSQL; otherwise answers run here, as without it. Tests pass the thread's options.
   */
  answeringThread?: boolean | AnsweringThreadOptions;
}

export function compose(config: BrainConfig, db: Database, logger: Logger, options: ComposeOptions = {}): Composition {
  const embedder = buildEmbedder(config, logger);
  const once = <T>(build: () => T): (() => T) => {
    let built: { value: T } | undefined;
    return () => (built ??= { value: build() }).value;
  };
  const checkStartup = once(() => checkEmbeddingModelAtStartup(db, embedder.model, logger));
  let built: { runtime: IngestRuntime; pretendHistory: DiscordHistory | undefined } | undefined;
  const ingest = (pretendHistory?: DiscordHistory): IngestRuntime => {
    if (built && pretendHistory !== undefined && pretendHistory !== built.pretendHistory) {
      throw new Error('compose: the ingestion runtime was built before the pretend server was known; pass it at the first ingest() call');
    }
    built ??= { runtime: buildIngestRuntime(config, db, logger, embedder, pretendHistory), pretendHistory };
    return built.runtime;
  };
  // One secret for onboarding here and the answering thread's billing links.
  const cookieSecret = once(() => resolveCookieSecret(config, logger));
  const onboarding = once(() => buildOnboarding({ config, db, logger, cookieSecret: cookieSecret(), print: options.print ?? ((line) => logger.info(line)) }));
  // Onboarding (and its cookie secret) is built at the first metered call, not before: a command
  // whose only workspace is the unmetered local one never needs it.
  const billingCheck = once(() => buildEntitlementCheck(onboarding()));
  const billing: EntitlementCheck = (workspaceId, action) => billingCheck()(workspaceId, action);
  const entitlementCheck = (localWorkspaceId?: string): EntitlementCheck =>
    localWorkspaceId === undefined ? billing : exceptLocalWorkspace(billing, localWorkspaceId);
  let thread: AnsweringThread | undefined;
  const answering = once((): AnswerQuestion => {
    const here = buildAnswering(config, db, logger, embedder);
    if (!options.answeringThread || !config.answerThread) return here;
    thread = startAnsweringThread(config, db, logger, here, options.answeringThread === true ? {} : options.answeringThread);
    return thread?.ask ?? here;
  });
  return {
    config,
    db,
    logger,
    embedder,
    checkStartup,
    ingest,
    answering,
    get answeringThread() {
      return thread;
    },
    answeringReady: async () => {
      await thread?.ready;
    },
    interactionHandOff: (localWorkspaceId) => {
      answering();
      const answers = thread;
      if (!answers) return undefined;
      return (dedupe) => answers.handOff({ localWorkspaceId, cookieSecret: cookieSecret(), dedupe }, handedOver);
    },
    onboarding,
    entitlementCheck,
    mcp: (localWorkspaceId) => buildMcpDeps(config, db, logger, embedder, entitlementCheck(localWorkspaceId)),
    async close() {
      const runtime = built?.runtime;
      built = undefined;
      const answers = thread;
      thread = undefined;
      await Promise.all([runtime?.close(), answers?.close()]);
    },
  };
}

/**
 * Which deferred work leaves the acknowledging thread: real Discord's /ask. The playground's
 * pretend server keeps its guild facts on the acknowledging thread, and /save its downloads.
 */
const handedOver = (work: DeferredWork): boolean => work.origin === 'discord' && work.label === '/ask';

/**
 * The answering thread's side of `interactionHandOff`: the deferred /ask's deps over that
 * thread's own connection, with the same entitlement policy (billing, the local workspace never
 * metered) and the same signing secret as here.
 */
export function composeHandedOffInteractions(config: BrainConfig, db: Database, logger: Logger, ask: AskFunction, setup: InteractionSetup): DeferredRunner {
  const billing = buildBillingService(config, db, logger, new Signer(setup.cookieSecret));
  const checkEntitlement = exceptLocalWorkspace(buildEntitlementCheck({ billing }), setup.localWorkspaceId);
  return wireHandedOffInteractions({ config, db, logger, ask, checkEntitlement, dedupe: setup.dedupe });
}
