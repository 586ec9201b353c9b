#!/usr/bin/env bash
# Both deployment paths of docs/deploy.md on a database whose `postgres` is Supabase's
# (.ci/start-supabase-like-postgres.sh): `brain migrate` and `supabase db push`, in either order
# and incrementally; `brain doctor`; save and ask as the services' login role, brain_app; then
# packages/db's suite (the tenancy matrix as brain_app among it) against that server.
# `supabase db push` is simulated as the CLI does it: each pending file in one transaction with
# its INSERT into supabase_migrations.schema_migrations, each file on a connection of its own.
# Usage: bash .ci/supabase-like-deploy.sh   (after npm ci and .ci/provision-postgres.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v jq >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq jq >/dev/null
fi

eval "$(bash .ci/start-supabase-like-postgres.sh)"
trap 'BRAIN_CI_PGDATA=$BRAIN_CI_SUPABASE_PGDATA bash .ci/stop-postgres.sh' EXIT
echo "Supabase-like server: ${SUPABASE_LIKE_URL}"

PSQL=(/usr/lib/postgresql/15/bin/psql -X -q -v ON_ERROR_STOP=1)
brain() { node apps/cli/bin/brain.js "$@"; }
url_of() { echo "${SUPABASE_LIKE_URL%/*}/$1"; }
fresh_db() { "${PSQL[@]}" "$SUPABASE_LIKE_URL" -c "create database $1" >/dev/null; url_of "$1"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
files=(supabase/migrations/*.sql)
newest=${files[-1]}
inserts=$(mktemp -d)
npx tsx .ci/supabase-like/cli-ledger-insert.ts "$inserts" "${files[@]}"

# The CLI's rule: skip every version in its ledger; refuse a missing file older than the newest
# recorded one (it would run again on top of what is there); apply the rest in order.
db_push() {
  local url=$1; shift
  local pushed newest_recorded
  "${PSQL[@]}" "$url" -c "set lock_timeout = '4s'" \
    -c 'create schema if not exists supabase_migrations' \
    -c 'create table if not exists supabase_migrations.schema_migrations (version text not null primary key)' \
    -c 'alter table supabase_migrations.schema_migrations add column if not exists statements text[]' \
    -c 'alter table supabase_migrations.schema_migrations add column if not exists name text' 2>/dev/null
  pushed=$("${PSQL[@]}" -At "$url" -c 'select version from supabase_migrations.schema_migrations order by version')
  newest_recorded=$(echo "$pushed" | tail -n 1)
  local applied=0 file version
  for file in "$@"; do
    version=$(basename "$file"); version=${version%%_*}
    grep -qx "$version" <<<"$pushed" && continue
    [[ -n "$newest_recorded" && "$version" < "$newest_recorded" ]] && fail "db push would refuse: $file is older than the newest recorded version $newest_recorded"
    local out
    if ! out=$(PGOPTIONS='-c client_min_messages=warning' "${PSQL[@]}" -1 "$url" -f "$file" -f "$inserts/$(basename "$file").insert.sql" 2>&1); then
      echo "$out" >&2
      fail "db push of $file"
    fi
    applied=$((applied + 1))
  done
  echo "  db push applied ${applied} file(s)"
}

applied_count() { jq '.applied | length' <<<"$1"; }

echo "== brain migrate twice: the second changes nothing"
url=$(fresh_db brain_twice)
first=$(DATABASE_URL=$url brain migrate --json)
[ "$(applied_count "$first")" -eq "${#files[@]}" ] || fail "first brain migrate applied $(applied_count "$first") of ${#files[@]}"
second=$(DATABASE_URL=$url brain migrate --json)
[ "$(applied_count "$second")" -eq 0 ] || fail "second brain migrate applied $(applied_count "$second")"
echo "  applied ${#files[@]}, then 0"

echo "== brain migrate, incrementally: all but the newest, then the newest alone"
url=$(fresh_db brain_incremental)
DATABASE_URL=$url npx tsx .ci/supabase-like/migrate-all-but-newest.ts | sed 's/^/  /'
last=$(DATABASE_URL=$url brain migrate --json)
[ "$(jq -r '.applied | join(",")' <<<"$last")" = "$(basename "$newest")" ] || fail "the newest alone: $last"
echo "  then $(basename "$newest") alone"

echo "== supabase db push, incrementally: all but the newest, then the newest alone"
url=$(fresh_db push_incremental)
db_push "$url" "${files[@]:0:${#files[@]}-1}"
db_push "$url" "${files[@]}"

echo "== brain migrate, then supabase db push (nothing left to push), then brain migrate again"
url=$(fresh_db brain_then_push)
DATABASE_URL=$url brain migrate --json >/dev/null
out=$(db_push "$url" "${files[@]}")
echo "$out"
grep -q 'applied 0 file' <<<"$out" || fail "db push after brain migrate re-ran files"
[ "$(applied_count "$(DATABASE_URL=$url brain migrate --json)")" -eq 0 ] || fail "brain migrate after db push"

echo "== supabase db push, then brain migrate (nothing left to apply)"
url=$(fresh_db push_then_brain)
db_push "$url" "${files[@]}"
after=$(DATABASE_URL=$url brain migrate --json)
[ "$(applied_count "$after")" -eq 0 ] || fail "brain migrate after db push applied $(applied_count "$after")"
[ "$(jq '.alreadyApplied | length' <<<"$after")" -eq "${#files[@]}" ] || fail "brain migrate did not record the pushed files"
echo "  brain migrate: 0 applied, ${#files[@]} recorded"

echo "== the Data API's schemas hold none of our functions, and anon is refused brain.match_artifacts"
in_public=$("${PSQL[@]}" -At "$url" -c "select string_agg(p.proname, ', ') from pg_proc p where p.pronamespace = 'public'::regnamespace and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')")
[ -z "$in_public" ] || fail "functions still in public (exposed by the Data API): $in_public"
if out=$("${PSQL[@]}" "$url" -c "set role anon" -c "select * from brain.match_artifacts(gen_random_uuid(), null, 'probe')" 2>&1); then
  fail "anon called brain.match_artifacts: $out"
fi
grep -q 'permission denied for schema brain' <<<"$out" || fail "anon's call failed otherwise than refused: $out"
echo "  public: no functions; anon: $(grep -o 'permission denied for schema brain' <<<"$out")"

echo "== brain doctor, as postgres (BYPASSRLS: a warning) and as brain_app (passes)"
password=$(openssl rand -hex 12)
"${PSQL[@]}" "$SUPABASE_LIKE_URL" -c "alter role brain_app with login password '${password}'"
app_url=$(sed -E "s#//postgres@#//brain_app:${password}@#" <<<"$url")
as_owner=$(DATABASE_URL=$url PUBLIC_URL=http://127.0.0.1:9 brain doctor --json --timeout 1000 || true)
jq -e '.checks[] | select(.id == "row-level-security") | .status == "warn"' <<<"$as_owner" >/dev/null || fail "doctor as postgres: $(jq -c '.checks[] | select(.id == "row-level-security")' <<<"$as_owner")"
as_app=$(DATABASE_URL=$app_url PUBLIC_URL=http://127.0.0.1:9 brain doctor --json --timeout 1000 || true)
for id in database pgvector migrations row-level-security embedding-dimension embedding-model; do
  jq -e --arg id "$id" '.checks[] | select(.id == $id) | .status == "pass"' <<<"$as_app" >/dev/null || fail "doctor as brain_app, $id: $(jq -c --arg id "$id" '.checks[] | select(.id == $id)' <<<"$as_app")"
done
jq -r '.checks[] | "  \(.status) \(.id): \(.detail)"' <<<"$as_app"
# render.yaml's preDeploy: the services' URL is brain_app's, the owner's comes in BRAIN_MIGRATE_DATABASE_URL.
predeploy=$(DATABASE_URL=$app_url BRAIN_MIGRATE_DATABASE_URL=$url brain migrate --json)
[ "$(applied_count "$predeploy")" -eq 0 ] || fail "brain migrate with BRAIN_MIGRATE_DATABASE_URL: $predeploy"
echo "  brain migrate with DATABASE_URL as brain_app and BRAIN_MIGRATE_DATABASE_URL as postgres: up to date"

echo "== save and ask as brain_app"
doc=$(mktemp -d)/retention.md
printf '# Retention\n\nBackups are kept for 35 days, then deleted for good.\n' >"$doc"
DATABASE_URL=$app_url brain save "$doc" --wait --json | jq -e 'all(.[]; .status == "ready")' >/dev/null || fail "save as brain_app"
answer=$(DATABASE_URL=$app_url brain ask "How long are backups kept?" --json)
jq -e '.grounded == true' <<<"$answer" >/dev/null || fail "ask as brain_app: $answer"
jq -r '"  " + (.answer | gsub("\n"; " ") | .[0:160])' <<<"$answer"
"${PSQL[@]}" "$SUPABASE_LIKE_URL" -c 'alter role brain_app with nologin password null'

echo "== packages/db suite against the Supabase-like server (tenancy matrix as brain_app included)"
(cd packages/db && TEST_DATABASE_URL=$SUPABASE_LIKE_URL TEST_POSTGRES_ONLY=1 npx vitest run && TEST_DATABASE_URL=$SUPABASE_LIKE_URL TEST_POSTGRES_ONLY=1 npx vitest run --config vitest.scale.config.ts)
