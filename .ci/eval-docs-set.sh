#!/usr/bin/env bash
# A documentation eval set against its baseline, as CI runs it after `npm test` (steps of their own:
# indexing a set's pages and answering its questions are the largest single jobs of the test run).
# `brain eval --baseline` exits 1 when a retrieval or answer figure of the whole set or of either
# half falls more than its tolerance below eval/<set>.baseline.json.
#   bash .ci/eval-docs-set.sh python-docs     (or: npm run eval:python-docs)
#   bash .ci/eval-docs-set.sh postgres-docs   (or: npm run eval:postgres-docs)
#   bash .ci/eval-docs-set.sh sqlite-docs     (or: npm run eval:sqlite-docs; the SQLite manual, written blind after the rest was tuned)
#   bash .ci/eval-docs-set.sh git-docs        (or: npm run eval:git-docs; the Git manual as AsciiDoc writes it, written blind)
#   bash .ci/eval-docs-set.sh django-docs     (or: npm run eval:django-docs; Django 3.2's documentation, a Sphinx theme declaring no content, written blind)
#   bash .ci/eval-docs-set.sh fastify-docs    (or: npm run eval:fastify-docs; the docs inside the pinned fastify package)
#   bash .ci/eval-docs-set.sh fastify-docs --postgres   (on a fresh database of TEST_DATABASE_URL's server)
#   bash .ci/eval-docs-set.sh pino-docs       (or: npm run eval:pino-docs; the docs inside the pinned pino package: one product's own pages)
#   bash .ci/eval-docs-set.sh commander-docs  (or: npm run eval:commander-docs; the pinned commander package's one Readme page)
#   bash .ci/eval-docs-set.sh readme-docs     (or: npm run eval:readme-docs; two saved READMEs, debug's and qs's, as the lockfile pins them)
#   bash .ci/eval-docs-set.sh npm-readmes     (or: npm run eval:npm-readmes; three more, semver's, find-my-way's and postgres.js's, as the lockfile pins them)
#   bash .ci/eval-docs-set.sh python-docs --each-page   (each answerable question over only the pages it expects,
#                                                       against eval/<set>.each-page.baseline.json; all sets: npm run eval:each-page)
set -euo pipefail
cd "$(dirname "$0")/.."

SET=${1:?usage: bash .ci/eval-docs-set.sh python-docs|postgres-docs|sqlite-docs|git-docs|django-docs|fastify-docs|pino-docs|commander-docs|readme-docs|npm-readmes [--postgres|--each-page]}
ENGINE=${2:-embedded}
if [ "$SET" = fastify-docs ]; then
  corpus=node_modules/fastify/docs
elif [ "$SET" = pino-docs ]; then
  corpus=node_modules/pino/docs
elif [ "$SET" = commander-docs ]; then
  corpus=node_modules/commander
elif [ "$SET" = readme-docs ]; then
  # Just the two README pages (the packages' folders hold changelogs and licences too), under
  # names that say whose they are. Both packages are dependencies of dependencies: a lockfile
  # change that moves either one's version can move this set's figures.
  corpus=$(mktemp -d)
  cp node_modules/debug/README.md "$corpus/debug-README.md"
  cp node_modules/qs/README.md "$corpus/qs-README.md"
elif [ "$SET" = npm-readmes ]; then
  # semver and find-my-way are dependencies of dependencies, postgres (postgres.js) one of
  # packages/db's: a lockfile change that moves one's version can move this set's figures.
  corpus=$(mktemp -d)
  cp node_modules/semver/README.md "$corpus/semver-README.md"
  cp node_modules/find-my-way/README.md "$corpus/find-my-way-README.md"
  cp node_modules/postgres/README.md "$corpus/postgres-README.md"
else
  # The folder .ci/run has already assembled (a quick no-op then), or assembled now when run alone.
  corpus=$(bash .ci/provision-eval-corpus.sh "$SET")
fi
data=$(mktemp -d)
db=""
cleanup() {
  rm -rf "$data"
  if [ "$SET" = readme-docs ] || [ "$SET" = npm-readmes ]; then rm -rf "$corpus"; fi
  if [ -n "$db" ]; then psql "$TEST_DATABASE_URL" -qAt -c "drop database if exists $db with (force)" >/dev/null || true; fi
}
trap cleanup EXIT

if [ "$ENGINE" = --postgres ]; then
  # A fresh database on the server TEST_DATABASE_URL names (.ci/run starts one), migrated by brain itself.
  : "${TEST_DATABASE_URL:?--postgres needs TEST_DATABASE_URL (eval \"\$(bash .ci/start-postgres.sh)\")}"
  db="brain_eval_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  psql "$TEST_DATABASE_URL" -qAt -c "create database $db" >/dev/null
  url="${TEST_DATABASE_URL%/*}/$db"
  run_env=(DATABASE_URL="$url" BRAIN_DATA_DIR="$data")
  env "${run_env[@]}" LOG_LEVEL=warn npx brain migrate >/dev/null
elif [ "$ENGINE" = embedded ] || [ "$ENGINE" = --each-page ]; then
  # A fresh embedded database, whatever the environment names.
  run_env=(-u DATABASE_URL BRAIN_DATA_DIR="$data")
else
  echo "unknown option $ENGINE (expected --postgres or --each-page)" >&2
  exit 2
fi

if [ "$ENGINE" = --each-page ]; then
  # A newcomer's workspace: only the pages each question expects, one workspace per set of pages.
  env "${run_env[@]}" LOG_LEVEL=warn \
    npx brain eval --questions "eval/$SET.jsonl" --corpus "$corpus" --workspace "$SET" \
    --baseline "eval/$SET.each-page.baseline.json" --answers --each-page
  exit
fi

env "${run_env[@]}" LOG_LEVEL=warn \
  npx brain eval --questions "eval/$SET.jsonl" --corpus "$corpus" --workspace "$SET" \
  --baseline "eval/$SET.baseline.json" --answers
