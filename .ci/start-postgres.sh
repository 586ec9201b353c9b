#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster on a free loopback port and prints its URL on stdout.
# Usage: eval "$(bash .ci/start-postgres.sh)"   → exports TEST_DATABASE_URL and BRAIN_CI_PGDATA
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
pgdata=$(mktemp -d /tmp/brain-ci-pg.XXXXXX)
run_as=""
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root.
  chown postgres:postgres "$pgdata"
  run_as="runuser -u postgres --"
fi

$run_as "$PG_BIN/initdb" -D "$pgdata" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
$run_as "$PG_BIN/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -o "-p $port -k $pgdata -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=256MB -c maintenance_work_mem=512MB" start >/dev/null

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:${port}/postgres"
echo "export BRAIN_CI_PGDATA=${pgdata}"
