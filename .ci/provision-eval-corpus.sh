#!/usr/bin/env bash
# Installs Debian's python3.11-doc (the python-docs eval corpus) and assembles the pages listed in
# eval/python-docs.pages.txt into one folder, named as the eval set names them (library/json.html…).
# Prints that folder. Quick no-op when both are already there.
#   bash .ci/provision-eval-corpus.sh [target dir, default .eval-corpus/python-docs]
set -euo pipefail
cd "$(dirname "$0")/.."

HTML_ROOT=/usr/share/doc/python3.11/html
TARGET=${1:-.eval-corpus/python-docs}
PAGES=eval/python-docs.pages.txt

if [ ! -f "$HTML_ROOT/library/json.html" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq python3.11-doc >/dev/null
fi

count=0
while IFS= read -r page; do
  case "$page" in '' | '#'*) continue ;; esac
  if [ ! -f "$HTML_ROOT/$page" ]; then
    echo "provision-eval-corpus: $HTML_ROOT/$page is missing (is python3.11-doc complete?)" >&2
    exit 1
  fi
  if [ ! -f "$TARGET/$page" ] || ! cmp -s "$HTML_ROOT/$page" "$TARGET/$page"; then
    mkdir -p "$TARGET/$(dirname "$page")"
    cp "$HTML_ROOT/$page" "$TARGET/$page"
  fi
  count=$((count + 1))
done <"$PAGES"
echo "python-docs eval corpus: $count pages in $TARGET" >&2
echo "$TARGET"
