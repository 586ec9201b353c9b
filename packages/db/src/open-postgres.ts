import postgres from 'postgres';
import type { Database, Queryable, Row } from './database.ts';

export interface PostgresOptions {
  url: string;
  display: string;
  /** Off behind a transaction pooler (Supavisor port 6543, PgBouncer), which cannot keep prepared statements. */
  prepare: boolean;
  maxConnections?: number;
  applicationName?: string;
  /** Receives NOTICE messages sent to the client. */
  onNotice?: (message: string) => void;
}

type Sql = postgres.Sql | postgres.TransactionSql;

export function openPostgres(options: PostgresOptions): Database {
  const sql = postgres(options.url, {
    prepare: options.prepare,
    max: options.maxConnections ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: (notice) => options.onNotice?.(String(notice.message ?? '')),
    connection: { application_name: options.applicationName ?? 'company-brain' },
    types: {
      // Same as PGlite: a JSON parameter given as a string is already JSON and passes through;
      // postgres.js would otherwise encode it a second time, as a JSON string.
      json: {
        to: 114,
        from: [114, 3802],
        serialize: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
        parse: (text: string): unknown => JSON.parse(text),
      },
    },
  });
  const wrap = (target: Sql): Queryable => ({
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []) {
      const rows = await target.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return [...rows] as unknown as T[];
    },
    async exec(script: string) {
      await target.unsafe(script);
    },
  });
  const root = wrap(sql);
  return {
    kind: 'postgres',
    display: options.display,
    query: root.query,
    exec: root.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return (await sql.begin((tx) => fn(wrap(tx)))) as T;
    },
    async listen(channel, onPayload) {
      const sub = await sql.listen(channel, onPayload);
      return async () => {
        await sub.unlisten();
      };
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
