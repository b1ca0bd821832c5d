#!/usr/bin/env bash
# The browser tests (test/e2e/pages.test.ts) drive Debian's headless Chromium through puppeteer-core: no browser
# download of its own. Installs it when missing and we are root; otherwise stops and says how.
set -euo pipefail
BIN="${CHROMIUM_BIN:-/usr/bin/chromium}"
if [ -x "$BIN" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing: installing it from Debian's packages (apt-get install -y chromium)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
  [ -x "$BIN" ] && exit 0
fi
echo "The page tests need Chromium at $BIN. Install it as root: apt-get install -y chromium (or set CHROMIUM_BIN)." >&2
exit 1
