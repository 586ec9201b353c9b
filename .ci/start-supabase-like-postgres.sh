#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster shaped like a Supabase project's database and prints
# its URLs on stdout. The facts come from supabase/postgres (migrations/db/init-scripts and
# migrations/db/migrations): a bootstrap superuser (supabase_admin); `postgres` demoted to
# NOSUPERUSER CREATEDB CREATEROLE LOGIN REPLICATION BYPASSRLS and made a member of the API roles;
# anon, authenticated and service_role (INHERIT, as since 20230529) with the default privileges
# that give them ALL on what `postgres` creates in public; pgvector created by the superuser in
# `extensions`, as the Dashboard does (postgres cannot create it: it is not a trusted extension,
# and there is no supautils here); the Data API's schemas. template1 gets the per-database parts
# too, so every database created from it (the test suites create one each) looks the same.
#
# Usage: eval "$(bash .ci/start-supabase-like-postgres.sh)"
#   → exports SUPABASE_LIKE_URL (as postgres), SUPABASE_LIKE_ADMIN_URL (as supabase_admin)
#     and BRAIN_CI_SUPABASE_PGDATA (for stop-postgres.sh: BRAIN_CI_PGDATA=$BRAIN_CI_SUPABASE_PGDATA)
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
pgdata=$(mktemp -d /tmp/brain-ci-supabase-pg.XXXXXX)
run_as=""
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root.
  chown postgres:postgres "$pgdata"
  run_as="runuser -u postgres --"
fi

$run_as "$PG_BIN/initdb" -D "$pgdata" -U supabase_admin --auth=trust --no-sync -E UTF8 >/dev/null
$run_as "$PG_BIN/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -o "-p $port -k $pgdata -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=128MB" start >/dev/null

psql_admin() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U supabase_admin "$@" >/dev/null; }

# Roles are cluster-wide: once.
psql_admin -d postgres <<'SQL'
create role postgres login createdb createrole replication bypassrls;
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
alter role anon inherit;
alter role authenticated inherit;
alter role service_role inherit;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
grant anon, authenticated, service_role to postgres;
grant pg_read_all_data, pg_signal_backend to postgres;
alter role postgres set search_path to "$user", public, extensions;
alter database postgres owner to postgres;
SQL

# Per database: template1 (so new databases inherit it) and postgres.
for db in template1 postgres; do
  psql_admin -d "$db" <<'SQL'
create schema if not exists extensions authorization postgres;
create extension if not exists vector with schema extensions;
create schema if not exists graphql_public;
create schema if not exists auth;
create schema if not exists storage;
grant usage on schema public to postgres, anon, authenticated, service_role;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
grant usage on schema graphql_public to postgres, anon, authenticated, service_role;
grant create on schema public to postgres;
alter default privileges for role postgres in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;
SQL
done

echo "export SUPABASE_LIKE_URL=postgres://postgres@127.0.0.1:${port}/postgres"
echo "export SUPABASE_LIKE_ADMIN_URL=postgres://supabase_admin@127.0.0.1:${port}/postgres"
echo "export BRAIN_CI_SUPABASE_PGDATA=${pgdata}"
