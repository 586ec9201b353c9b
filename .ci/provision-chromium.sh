#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (playwright-core drives /usr/bin/chromium;
# playwright's own browser download cannot run here). Quick no-op when already installed.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
