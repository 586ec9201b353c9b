export type DatabaseConfig =
  /** thread: PGlite runs in a worker thread (BRAIN_PGLITE_THREAD, on unless set to off). */
  | { kind: 'pglite'; dataDir: string; display: string; thread: boolean }
  | { kind: 'postgres'; url: string; display: string; prepare: boolean };

export interface BrainConfig {
  /** embedded: PGlite in BRAIN_DATA_DIR, web + worker in one process. postgres: DATABASE_URL. */
  mode: 'embedded' | 'postgres';
  port: number;
  /** HOST: the address the web server listens on; 127.0.0.1 in embedded mode, 0.0.0.0 in PostgreSQL mode. */
  host: string;
  /**
   * BRAIN_TRUST_PROXY: which proxies may say who the client is (X-Forwarded-For): a hop count or
   * a list of addresses and CIDRs, as fastify's `trustProxy` takes them. Unset (false), the
   * client is the socket's peer.
   */
  trustProxy: false | number | string[];
  publicUrl: string;
  publicUrlConfigured: boolean;
  dataDir: string;
  database: DatabaseConfig;
  /**
   * What `brain migrate` connects to: BRAIN_MIGRATE_DATABASE_URL (the schema owner, when the
   * services log in as brain_app), else the services' own database.
   */
  migrationDatabase: DatabaseConfig;
  discord: {
    publicKey: string | undefined;
    applicationId: string | undefined;
    clientSecret: string | undefined;
    botToken: string | undefined;
    apiBase: string | undefined;
    /** Where the browser is sent to authorize an install (…/oauth2/authorize). */
    oauthBase: string;
    /** Both the client id and secret are set, so /install can complete. */
    installConfigured: boolean;
  };
  openai: { apiKey: string | undefined; baseUrl: string | undefined; configured: boolean };
  embedding: {
    provider: 'openai' | 'local';
    model: string;
    /** EMBEDDING_MODEL is unset: `model` is the default, and a database of another local model keeps its own. */
    defaulted?: true;
  };
  chat: { provider: 'openai' | 'extractive'; model: string | undefined };
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    priceId: string | undefined;
    apiBase: string | undefined;
    /** STRIPE_SECRET_KEY is set (the price and webhook secret are then required too). */
    enabled: boolean;
  };
  /** The free allowance before a plan is needed, and how long a failed payment keeps access. */
  entitlements: { freeSaves: number; freeAsks: number; pastDueGraceDays: number };
  /**
   * BRAIN_SAVES_PER_MEMBER (per 10 minutes, default 20) and BRAIN_SAVES_PER_WORKSPACE (per hour,
   * default 200): saves from Discord and MCP beyond these are refused with the time to wait. 0 is
   * no limit. The operator's own `brain save` is not limited.
   */
  saveLimits: { perMember: { limit: number; windowSeconds: number }; perWorkspace: { limit: number; windowSeconds: number } };
  /** Signs cookies, CSRF tokens and links; unset means the app derives or generates one. */
  cookieSecret: string | undefined;
  supabase: { url: string | undefined; serviceRoleKey: string | undefined };
  allowPrivateHosts: string[];
  /**
   * The local playground (/playground): on by default in embedded mode without Discord
   * credentials; off otherwise unless BRAIN_PLAYGROUND=on.
   */
  playground: { enabled: boolean };
  mcpToken: string | undefined;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; PostgreSQL mode requires it to serve (checkServingConfig). */
  metricsToken: string | undefined;
  /**
   * BRAIN_SHUTDOWN_GRACE_SECONDS: on SIGTERM, everything the process has in flight gets this long
   * from the signal: answers still being written are then told to stop and edit their reply with
   * a "restarted, ask again" notice, and running jobs are released to the queue. One value for the
   * whole process, because the platform's kill deadline is one deadline for the whole process.
   */
  shutdownGraceMs: number;
  /** `brain start` answers questions on a thread of its own (BRAIN_ANSWER_THREAD, on unless set to off). */
  answerThread: boolean;
  /**
   * BRAIN_HELPER_THREAD_PRIORITY: how far the database's, the answering and ingestion's threads
   * give way to the thread that acknowledges interactions (Linux): `nice` (default, 10 nice steps),
   * `idle` (also SCHED_IDLE: for a machine of its own, since busy neighbours can starve them) or
   * `normal`.
   */
  helperThreadPriority: 'nice' | 'idle' | 'normal';
  worker: {
    /** Jobs one worker process runs at once. */
    concurrency: number;
    /**
     * BRAIN_WORKER_JOBS_PER_WORKSPACE: jobs one workspace may have running at once across every
     * worker (default: concurrency − 1, at least 1); the rest of its queue waits its turn.
     */
    jobsPerWorkspace: number;
    /** BRAIN_FETCH_TIMEOUT_SECONDS: the whole fetch of one URL (DNS, redirects, body); default 20 s. */
    fetchTimeoutMs: number;
    /** How long a claimed job stays a worker's without a heartbeat; a dead worker's job waits this long. */
    leaseMs: number;
    /** URL sources older than this are refreshed by the sweeper. */
    refreshAfterMs: number;
    /** /sync channels synced longer ago than this are synced again at the next sweep (BRAIN_SYNC_INTERVAL_MINUTES). */
    syncEveryMs: number;
    /**
     * BRAIN_METRICS_PORT: `brain worker` serves GET /metrics and GET /healthz on this port (0 picks
     * a free one). Unset, a separate worker serves nothing; `brain start` ignores it (the web has /metrics).
     */
    metricsPort: number | undefined;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** False when LOG_LEVEL is unset: one-shot commands then log warnings only. */
  logLevelSet: boolean;
}
