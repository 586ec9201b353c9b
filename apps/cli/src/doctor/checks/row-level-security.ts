import type { DoctorCheck } from '../check.ts';
import { fail, needsDatabase, pass, skip, warn } from '../check.ts';

interface ConnectingRole extends Record<string, unknown> {
  role: string;
  superuser: boolean;
  bypassrls: boolean;
  tenant: boolean;
  service: boolean;
  app_role_exists: boolean;
}

/**
 * Row Level Security binds the connection only if its role is neither a superuser nor BYPASSRLS.
 * On Supabase the schema owner, postgres, has BYPASSRLS: isolation then rests on each
 * transaction's SET LOCAL ROLE brain_tenant alone, one forgotten switch from every tenant's rows.
 */
export const rowLevelSecurityCheck: DoctorCheck = {
  id: 'row-level-security',
  title: 'Row Level Security binds the connection',
  async run(ctx) {
    const db = ctx.db;
    if (!db) return needsDatabase;
    if (db.kind === 'pglite') return skip('not applicable: the embedded database has one local user, a superuser; tenant transactions still switch to brain_tenant');
    const [me] = await db.query<ConnectingRole>(`
      select r.rolname as role, r.rolsuper as superuser, r.rolbypassrls as bypassrls,
        case when exists (select 1 from pg_roles where rolname = 'brain_tenant') then pg_has_role(current_user, 'brain_tenant', 'member') else false end as tenant,
        case when exists (select 1 from pg_roles where rolname = 'service_role') then pg_has_role(current_user, 'service_role', 'member') else false end as service,
        exists (select 1 from pg_roles where rolname = 'brain_app') as app_role_exists
      from pg_roles r where r.rolname = current_user`);
    if (!me) return fail('cannot read the connecting role from pg_roles', 'Check DATABASE_URL\'s user.');
    if (me.superuser || me.bypassrls) {
      const why = me.superuser ? 'is a superuser' : 'has BYPASSRLS';
      const enable = `as ${me.role}, run \`alter role brain_app with login password '<a new password>'\`, then give the services a DATABASE_URL with user brain_app (on Supabase's pooler: brain_app.<project-ref>) and that password; keep the owner's URL for \`brain migrate\` (docs/deploy.md)`;
      return warn(
        `connected as ${me.role}, which ${why}: Row Level Security does not bind this connection, only each transaction's SET LOCAL ROLE brain_tenant does`,
        me.app_role_exists ? `Connect the services as brain_app: ${enable}.` : `Run \`brain migrate\` (it creates brain_app), then ${enable}.`,
      );
    }
    const missing = [!me.tenant && 'brain_tenant', !me.service && 'service_role'].filter(Boolean);
    if (missing.length > 0) {
      return fail(
        `connected as ${me.role}, which cannot switch to ${missing.join(' or ')}: tenant or cross-workspace work will fail`,
        `As the schema owner, run \`grant ${missing.join(', ')} to ${me.role}\` (brain_app gets both from \`brain migrate\`).`,
      );
    }
    return pass(`connected as ${me.role}: not a superuser, no BYPASSRLS, so Row Level Security binds every query`);
  },
};
