#!/usr/bin/env bash
# The chromium the dashboard's browser test and screenshots drive: AIZK_CHROMIUM when set, else
# the machine's /usr/bin/chromium (Debian's `chromium`). Nothing is installed: a test run leaves
# the system's packages as they are. Prints the executable's path; without one, fails with one
# line saying how to provide it, and the browser test skips with that line.
set -uo pipefail
if [ -n "${AIZK_CHROMIUM:-}" ]; then
  [ -x "$AIZK_CHROMIUM" ] || { echo "AIZK_CHROMIUM=$AIZK_CHROMIUM is not an executable" >&2; exit 1; }
  echo "$AIZK_CHROMIUM"
  exit 0
fi
[ -x /usr/bin/chromium ] && { echo /usr/bin/chromium; exit 0; }
echo "no chromium: /usr/bin/chromium is absent and AIZK_CHROMIUM is unset (the tests install nothing into the system; install Debian's chromium, or set AIZK_CHROMIUM to a chromium executable)" >&2
exit 1
