#!/usr/bin/env bash
# Every answer set asked page by page (brain eval --each-page): each answerable question in a
# workspace holding only the pages it expects, as a newcomer who saved that page asks it, against
# eval/<set>.each-page.baseline.json. Runs every set even when one fails, then names those that did.
#   bash .ci/eval-each-page.sh            (or: npm run eval:each-page)
#   bash .ci/eval-each-page.sh sqlite-docs git-docs
set -uo pipefail
cd "$(dirname "$0")/.."

SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(fastify-docs python-docs postgres-docs sqlite-docs git-docs django-docs pino-docs commander-docs readme-docs npm-readmes)
failed=()
for set in "${SETS[@]}"; do
  echo "-- $set, page by page"
  bash .ci/eval-docs-set.sh "$set" --each-page || failed+=("$set")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "page by page, below the baseline: ${failed[*]}" >&2
  exit 1
fi
