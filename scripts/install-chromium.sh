#!/usr/bin/env bash
# Debian's chromium for the dashboard's browser test (test/dashboard/browser.test.ts), installed
# only when /usr/bin/chromium is absent and never upgrading what the machine already has. Prints
# nothing on success; on failure one line saying why, and the browser test skips with it.
set -uo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" != 0 ]; then echo "chromium is not installed and this is not root: apt-get install chromium" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends --no-upgrade chromium >/dev/null 2>&1; then
  apt-get update >/dev/null 2>&1
  apt-get install -y --no-install-recommends --no-upgrade chromium >/dev/null 2>&1 || { echo "apt-get install chromium failed" >&2; exit 1; }
fi
