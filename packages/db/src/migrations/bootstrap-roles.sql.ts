/**
 * Supabase ships anon, authenticated and service_role; plain PostgreSQL and PGlite do not. Creating
 * the missing ones lets the same migrations (which revoke from and grant to them) run everywhere.
 * service_role has BYPASSRLS, as on Supabase: cross-workspace work (the queue, billing) runs as it.
 * A concurrent bootstrap may create a role between the check and the CREATE; that is fine.
 */
export const bootstrapRolesSql = `
do $$
declare
  r record;
begin
  for r in select * from (values
      ('anon', 'nologin noinherit'),
      ('authenticated', 'nologin noinherit'),
      ('service_role', 'nologin noinherit bypassrls')) as t(name, attrs)
  loop
    if not exists (select 1 from pg_roles where rolname = r.name) then
      begin
        execute format('create role %I %s', r.name, r.attrs);
      exception when duplicate_object or unique_violation then
        null;
      end;
    end if;
  end loop;

  if not pg_has_role(current_user, 'service_role', 'member') then
    begin
      execute format('grant service_role to %I', current_user);
    exception when insufficient_privilege then
      raise warning 'cannot grant service_role to %: cross-workspace work will fail until an admin does', current_user;
    end;
  end if;
end
$$;
`;
