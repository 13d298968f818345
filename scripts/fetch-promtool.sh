#!/usr/bin/env bash
# Prints the path of a promtool for the suite's alert-rule and metrics checks. One already on
# PATH is used as it is; otherwise Debian's `prometheus` package is downloaded (apt-get download,
# no install: no system package changes) and only its promtool is unpacked (dpkg-deb -x) into
# ${AIZK_PROMTOOL_CACHE:-CACHE/prometheus} (CACHE: $AIZK_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/aizk), once.
# Exit 3 with one line on stderr when neither is possible (no apt, no network).
set -euo pipefail
if command -v promtool >/dev/null 2>&1; then
  command -v promtool
  exit 0
fi
cache="${AIZK_PROMTOOL_CACHE:-${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/prometheus}"
bin="$cache/promtool"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
for tool in apt-get dpkg-deb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "promtool is not on PATH and $tool is missing: install Prometheus's promtool, or run on Debian/Ubuntu" >&2
    exit 3
  fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp" # apt's unprivileged _apt user writes the download here when run as root
if ! (cd "$tmp" && apt-get download prometheus >"$tmp/apt.log" 2>&1); then
  echo "could not download Debian's prometheus package: $(tail -n 1 "$tmp/apt.log")" >&2
  exit 3
fi
dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/root"
mkdir -p "$cache"
install -m 755 "$tmp/root/usr/bin/promtool" "$bin.partial"
mv "$bin.partial" "$bin"
echo "$bin"
