import type { WebApp } from './app.ts';
import type { WebDeps } from './deps.ts';

/** The header that marks the warm-up's own requests, with a value only this process knows. */
export const WARM_UP_HEADER = 'x-brain-warm-up';

export interface WarmUpOptions {
  /** The value of WARM_UP_HEADER that the interactions route recognises as this warm-up. */
  token: string;
  /** Database connections opened before the first real request needs one. */
  connections?: number;
  /** Passes over POST /interactions: enough for V8 to compile and cache the path, not to tier it up. */
  rounds?: number;
}

/**
 * Runs what a cold instance's first acknowledgements would otherwise pay for, before readiness
 * says yes: a few pooled database connections (each a TCP and startup round trip), and POST
 * /interactions end to end — routing, the raw-body parser, Ed25519 verification, the error reply —
 * with a well-formed signature that no key signed, so nothing reaches a command or Discord. On a
 * 2-core machine under load the soak saw a restarted instance's first acks take 1.0–1.5 s. It
 * also waits for `deps.readyAfter` (the answering thread, 1–3 s to start).
 */
export async function warmUp(app: WebApp, deps: WebDeps, options: WarmUpOptions): Promise<void> {
  await Promise.all([warmPath(app, deps, options), deps.readyAfter?.()]);
}

async function warmPath(app: WebApp, deps: WebDeps, options: WarmUpOptions): Promise<void> {
  const connections = options.connections ?? 4;
  await Promise.all(Array.from({ length: connections }, () => deps.db.query('select 1')));
  if (!deps.discord) return;
  const payload = JSON.stringify({ id: '0', application_id: '0', type: 1, token: 'warm-up', version: 1 });
  for (let i = 0; i < (options.rounds ?? 20); i++) {
    await app.inject({
      method: 'POST',
      url: '/interactions',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': '0'.repeat(128),
        'x-signature-timestamp': String(Math.floor(Date.now() / 1000)),
        [WARM_UP_HEADER]: options.token,
      },
      payload,
    });
  }
}
