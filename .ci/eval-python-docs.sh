#!/usr/bin/env bash
# The python-docs eval against its baseline, as CI runs it after `npm test` (a step of its own:
# indexing 67 pages and answering 110 questions is the largest single job of the test run).
# `brain eval --baseline` exits 1 when a retrieval or answer figure of the whole set or of either
# half falls more than its tolerance below eval/python-docs.baseline.json.
#   bash .ci/eval-python-docs.sh        (or: npm run eval:python-docs)
set -euo pipefail
cd "$(dirname "$0")/.."

# The folder .ci/run has already assembled (a quick no-op then), or assembled now when run alone.
corpus=$(bash .ci/provision-eval-corpus.sh)
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# A fresh embedded database, whatever the environment names.
env -u DATABASE_URL BRAIN_DATA_DIR="$data" LOG_LEVEL=warn \
  npx brain eval --questions eval/python-docs.jsonl --corpus "$corpus" --workspace python-docs \
  --baseline eval/python-docs.baseline.json --answers
