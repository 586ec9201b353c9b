#!/usr/bin/env bash
# Installs the Debian documentation package behind a named eval set and assembles the pages listed
# in eval/<set>.pages.txt into one folder, named as the eval set names them (library/json.html…,
# sql-notify.html…). Prints that folder. Quick no-op when both are already there.
#   bash .ci/provision-eval-corpus.sh [set, default python-docs] [target dir, default .eval-corpus/<set>]
# Sets: python-docs and python-dev (python3.11-doc), postgres-docs and postgres-dev (postgresql-doc-15),
# sqlite-docs (sqlite3-doc), git-docs (git-doc), django-docs (python-django-doc).
set -euo pipefail
cd "$(dirname "$0")/.."

SET=${1:-python-docs}
case "$SET" in
  python-docs | python-dev) PACKAGE=python3.11-doc HTML_ROOT=/usr/share/doc/python3.11/html PROBE=library/json.html ;;
  postgres-docs | postgres-dev) PACKAGE=postgresql-doc-15 HTML_ROOT=/usr/share/doc/postgresql-doc-15/html PROBE=sql-notify.html ;;
  sqlite-docs) PACKAGE=sqlite3-doc HTML_ROOT=/usr/share/doc/sqlite3 PROBE=lang_createtable.html ;;
  git-docs) PACKAGE=git-doc HTML_ROOT=/usr/share/doc/git-doc PROBE=git-stash.html ;;
  django-docs) PACKAGE=python-django-doc HTML_ROOT=/usr/share/doc/python-django-doc/html PROBE=ref/models/querysets.html ;;
  *)
    echo "provision-eval-corpus: unknown eval set \"$SET\" (python-docs, python-dev, postgres-docs, postgres-dev, sqlite-docs, git-docs or django-docs)" >&2
    exit 2
    ;;
esac
TARGET=${2:-.eval-corpus/$SET}
PAGES=eval/$SET.pages.txt

if [ ! -f "$HTML_ROOT/$PROBE" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "$PACKAGE" >/dev/null
fi

count=0
while IFS= read -r page; do
  case "$page" in '' | '#'*) continue ;; esac
  if [ ! -f "$HTML_ROOT/$page" ]; then
    echo "provision-eval-corpus: $HTML_ROOT/$page is missing (is $PACKAGE complete?)" >&2
    exit 1
  fi
  if [ ! -f "$TARGET/$page" ] || ! cmp -s "$HTML_ROOT/$page" "$TARGET/$page"; then
    mkdir -p "$TARGET/$(dirname "$page")"
    cp "$HTML_ROOT/$page" "$TARGET/$page"
  fi
  count=$((count + 1))
done <"$PAGES"
echo "$SET eval corpus: $count pages in $TARGET" >&2
echo "$TARGET"
