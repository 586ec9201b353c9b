#!/usr/bin/env bash
# A documentation eval set against its baseline, as CI runs it after `npm test` (steps of their own:
# indexing a set's pages and answering its questions are the largest single jobs of the test run).
# `brain eval --baseline` exits 1 when a retrieval or answer figure of the whole set or of either
# half falls more than its tolerance below eval/<set>.baseline.json.
#   bash .ci/eval-docs-set.sh python-docs     (or: npm run eval:python-docs)
#   bash .ci/eval-docs-set.sh postgres-docs   (or: npm run eval:postgres-docs)
#   bash .ci/eval-docs-set.sh fastify-docs    (or: npm run eval:fastify-docs; the docs inside the pinned fastify package)
set -euo pipefail
cd "$(dirname "$0")/.."

SET=${1:?usage: bash .ci/eval-docs-set.sh python-docs|postgres-docs|fastify-docs}
if [ "$SET" = fastify-docs ]; then
  corpus=node_modules/fastify/docs
else
  # The folder .ci/run has already assembled (a quick no-op then), or assembled now when run alone.
  corpus=$(bash .ci/provision-eval-corpus.sh "$SET")
fi
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# A fresh embedded database, whatever the environment names.
env -u DATABASE_URL BRAIN_DATA_DIR="$data" LOG_LEVEL=warn \
  npx brain eval --questions "eval/$SET.jsonl" --corpus "$corpus" --workspace "$SET" \
  --baseline "eval/$SET.baseline.json" --answers
