export type Row = Record<string, unknown>;

/**
 * What every query needs: parameterised SQL ($1, $2 …) in, plain rows out. The same text runs on
 * PGlite and on PostgreSQL. Conventions that keep both drivers alike:
 *   - cast counts and other bigints to int in SQL (`count(*)::int`); drivers disagree on int8;
 *   - pass vectors as text and cast (`$1::vector`); pass JSON as text and cast (`$2::jsonb`);
 *   - pass arrays as Postgres literals or JSON (`$3::uuid[]`, `jsonb_array_elements_text($3::jsonb)`).
 */
export interface Queryable {
  query: <T extends Row = Row>(text: string, params?: readonly unknown[]) => Promise<T[]>;
  /** Several statements, no parameters (migrations, SET LOCAL). */
  exec: (script: string) => Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Where it points, without credentials: safe for logs and errors. */
  readonly display: string;
  /** One transaction: committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; resolves to the function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
