#!/usr/bin/env bash
# The chromium the dashboard's browser test and screenshots drive: AIZK_CHROMIUM when set, else
# the machine's /usr/bin/chromium (Debian's `chromium`), else the one scripts/fetch-chromium.sh
# unpacked into this user's cache. Finding installs and downloads nothing. Prints the
# executable's path; without one, fails with one line saying how to provide it, and the browser
# test skips with that line.
set -uo pipefail
if [ -n "${AIZK_CHROMIUM:-}" ]; then
  [ -x "$AIZK_CHROMIUM" ] || { echo "AIZK_CHROMIUM=$AIZK_CHROMIUM is not an executable" >&2; exit 1; }
  echo "$AIZK_CHROMIUM"
  exit 0
fi
[ -x /usr/bin/chromium ] && { echo /usr/bin/chromium; exit 0; }
cached="${AIZK_CHROMIUM_CACHE:-${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/chromium}/chromium"
[ -x "$cached" ] && { echo "$cached"; exit 0; }
echo "no chromium: AIZK_CHROMIUM is unset, /usr/bin/chromium is absent and $cached was not fetched (run scripts/fetch-chromium.sh, which unpacks Debian's chromium into that cache without installing it, or set AIZK_CHROMIUM to a chromium executable)" >&2
exit 1
