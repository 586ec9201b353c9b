#!/usr/bin/env bash
# Stops the cluster started by start-postgres.sh and removes its data directory.
set -uo pipefail
[ -n "${BRAIN_CI_PGDATA:-}" ] && [ -d "$BRAIN_CI_PGDATA" ] || exit 0
run_as=""
[ "$(id -u)" -eq 0 ] && run_as="runuser -u postgres --"
$run_as /usr/lib/postgresql/15/bin/pg_ctl -D "$BRAIN_CI_PGDATA" -m immediate stop >/dev/null 2>&1
rm -rf "$BRAIN_CI_PGDATA"
