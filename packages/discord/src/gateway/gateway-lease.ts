import { withService, type Database } from '@brain/db';

/** The one lease name: a deployment has one bot token, so one Gateway session. */
export const GATEWAY_LEASE = 'discord-gateway';

/**
 * Takes the deployment's Gateway lease for `holder`, or renews it if `holder` has it; true when
 * `holder` holds it until now + ttlMs. A lease whose holder stopped renewing (it died, or lost
 * the database) lapses at expires_at and the next caller takes it over. Service role: the lease
 * belongs to the deployment, not to a workspace.
 */
export async function acquireGatewayLease(db: Database, holder: string, ttlMs: number, name = GATEWAY_LEASE): Promise<boolean> {
  const rows = await withService(db, (tx) =>
    tx.query<{ holder: string }>(
      `insert into public.gateway_leases (name, holder, expires_at)
       values ($1, $2, now() + $3 * interval '1 millisecond')
       on conflict (name) do update
         set holder = excluded.holder,
             expires_at = excluded.expires_at,
             acquired_at = case when public.gateway_leases.holder = excluded.holder then public.gateway_leases.acquired_at else now() end
         where public.gateway_leases.holder = excluded.holder or public.gateway_leases.expires_at < now()
       returning holder`,
      [name, holder, Math.max(1, Math.round(ttlMs))],
    ),
  );
  return rows.length === 1;
}

/** Gives the lease up at once (a clean shutdown), so a standby connects without waiting for it to lapse. */
export async function releaseGatewayLease(db: Database, holder: string, name = GATEWAY_LEASE): Promise<void> {
  await withService(db, (tx) => tx.query('delete from public.gateway_leases where name = $1 and holder = $2', [name, holder]));
}
