#!/usr/bin/env bash
# Prints the path of a PgBouncer for the suite's and the bench's transaction-pooling runs. Debian's
# `pgbouncer` package is downloaded (apt-get download, no install: no system package changes) and
# unpacked (dpkg-deb -x) into ${AIZK_PGBOUNCER_CACHE:-CACHE/pgbouncer} (CACHE: $AIZK_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/aizk),
# once, with any shared library it needs that the machine lacks (libc-ares2 here), unpacked
# beside it; the printed path is a wrapper that points the loader there.
# Exit 3 with one line on stderr when that is not possible (no apt, no network).
set -euo pipefail
cache="${AIZK_PGBOUNCER_CACHE:-${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/pgbouncer}"
bin="$cache/pgbouncer"
if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi
for tool in apt-get apt-cache dpkg-deb ldd; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "PgBouncer is not in $cache and $tool is missing: run on Debian/Ubuntu, or unpack a pgbouncer there" >&2
    exit 3
  fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp" # apt's unprivileged _apt user writes the download here when run as root
download() {
  if ! (cd "$tmp" && apt-get download "$1" >"$tmp/apt.log" 2>&1); then
    echo "could not download Debian's $1 package: $(tail -n 1 "$tmp/apt.log")" >&2
    exit 3
  fi
}
download pgbouncer
dpkg-deb -x "$tmp"/pgbouncer_*.deb "$tmp/root"
# Libraries the package depends on that this machine does not have: unpacked, not installed.
for dep in $(apt-cache depends pgbouncer | sed -n 's/^ *Depends: \(lib[^ <>]*\)$/\1/p'); do
  if ! dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q 'install ok installed'; then
    download "$dep"
    dpkg-deb -x "$tmp"/"${dep}"_*.deb "$tmp/root"
  fi
done
rm -rf "$cache.partial"
mkdir -p "$cache.partial/lib"
install -m 755 "$tmp/root/usr/sbin/pgbouncer" "$cache.partial/pgbouncer.bin"
find "$tmp/root" -name 'lib*.so*' \( -type f -o -type l \) -exec cp -a {} "$cache.partial/lib/" \;
cat >"$cache.partial/pgbouncer" <<'WRAP'
#!/bin/sh
here="$(dirname "$(readlink -f "$0")")"
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/pgbouncer.bin" "$@"
WRAP
chmod 755 "$cache.partial/pgbouncer"
missing="$(LD_LIBRARY_PATH="$cache.partial/lib" ldd "$cache.partial/pgbouncer.bin" | grep 'not found' || true)"
if [ -n "$missing" ]; then
  echo "PgBouncer still lacks shared libraries after unpacking its dependencies: $(echo "$missing" | tr -s ' \n' ' ')" >&2
  exit 3
fi
rm -rf "$cache"
mv "$cache.partial" "$cache"
echo "$bin"
