#!/usr/bin/env bash
# Installs pgvector 0.8 for the machine's PostgreSQL 15 (Debian bookworm has no package for it,
# so it is built from the trixie source package). Quick no-op when already installed.
set -euo pipefail

PG_MAJOR=15
EXT_DIR="/usr/share/postgresql/${PG_MAJOR}/extension"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

if [ -f "${EXT_DIR}/vector.control" ] && grep -q "default_version = '0.8" "${EXT_DIR}/vector.control"; then
  echo "pgvector already installed: $(grep default_version "${EXT_DIR}/vector.control")"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
mirror=$(awk '/^URIs:/ && /debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
src_list=/etc/apt/sources.list.d/brain-trixie-src.sources
if [ ! -f "$src_list" ]; then
  $SUDO tee "$src_list" >/dev/null <<SRC
Types: deb-src
URIs: ${mirror}
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "postgresql-server-dev-${PG_MAJOR}" dpkg-dev make gcc >/dev/null

build_dir=$(mktemp -d)
(
  cd "$build_dir"
  apt-get source -qq pgvector >/dev/null 2>&1 || apt-get source pgvector
  cd pgvector-*/
  make -s PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
  $SUDO make -s install PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
)
rm -rf "$build_dir"
echo "pgvector installed: $(grep default_version "${EXT_DIR}/vector.control")"
