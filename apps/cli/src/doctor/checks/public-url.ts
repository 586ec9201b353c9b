import type { DoctorCheck } from '../check.ts';
import { fail, needsConfig, pass, skip } from '../check.ts';

/**
 * GET PUBLIC_URL/healthz from here: what Discord and Stripe will reach. Run it where the service
 * runs (a Render shell) once it is up; a failure names what did not answer.
 */
export const publicUrlCheck: DoctorCheck = {
  id: 'public-url',
  title: 'Public URL reachable',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return needsConfig;
    if (!config.publicUrlConfigured) {
      if (config.mode === 'embedded') return skip(`PUBLIC_URL is not set: only this machine can reach ${config.publicUrl}`);
      return fail('PUBLIC_URL is not set: Discord, Stripe and sign-in links cannot reach this service', 'Set PUBLIC_URL to the service\'s https address (on Render: https://<service>.onrender.com or your domain).');
    }
    const url = `${config.publicUrl}/healthz`;
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(ctx.timeoutMs), redirect: 'manual' });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      return fail(
        timedOut ? `${url} did not answer within ${ctx.timeoutMs} ms` : `${url} could not be reached (${networkCause(error)})`,
        'Start the service (`brain start`), then check that PUBLIC_URL is its public address and that DNS and TLS for it work from here.',
      );
    }
    const ms = Math.round(performance.now() - started);
    await response.body?.cancel();
    if (response.status !== 200) {
      return fail(
        `${url} answered HTTP ${response.status} in ${ms} ms`,
        response.status === 503 ? 'The service is up but cannot reach its database: check DATABASE_URL on the service.' : 'Check that PUBLIC_URL points at this service, not another site or a redirect.',
      );
    }
    return pass(`${url} answered 200 in ${ms} ms`);
  },
};

/** undici's "fetch failed" hides the reason in its cause (sometimes an AggregateError of attempts). */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.find((e) => e.code)?.code ?? cause?.message ?? (error as Error).message;
}
