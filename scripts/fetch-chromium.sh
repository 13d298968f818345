#!/usr/bin/env bash
# Prints the path of a chromium for the dashboard's browser test. Debian's `chromium` and
# `chromium-common` are downloaded (apt-get download, no install: no system package changes) and
# unpacked (dpkg-deb -x) into ${AIZK_CHROMIUM_CACHE:-CACHE/chromium} (CACHE: $AIZK_CACHE_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/aizk), once, per user. The shared libraries the machine lacks are
# unpacked beside it: each round fetches the library packages (Depends: lib*) of the packages
# fetched the round before that the machine does not have, until ldd finds every library of the
# chromium binary. The printed path is a wrapper that points the loader there.
# Exit 3 with one line on stderr when that is not possible (no apt, no network).
set -euo pipefail
cache="${AIZK_CHROMIUM_CACHE:-${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/chromium}"
bin="$cache/chromium"
if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi
for tool in apt-get apt-cache dpkg-deb dpkg-query ldd; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "chromium is not in $cache and $tool is missing: run on Debian/Ubuntu, or set AIZK_CHROMIUM to a chromium executable" >&2
    exit 3
  fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp" "$cache.partial"' EXIT
chmod 777 "$tmp" # apt's unprivileged _apt user writes the download here when run as root
mkdir "$tmp/debs"
chmod 777 "$tmp/debs"
root="$cache.partial/root"
rm -rf "$cache.partial"
mkdir -p "$root"

fetched=" "
fetch() {
  if ! (cd "$tmp/debs" && apt-get download "$1" >"$tmp/apt.log" 2>&1); then
    echo "could not download Debian's $1 package: $(tail -n 1 "$tmp/apt.log")" >&2
    exit 3
  fi
  dpkg-deb -x "$tmp"/debs/"${1}"_*.deb "$root"
  rm -f "$tmp"/debs/"${1}"_*.deb
  fetched="$fetched$1 "
}
installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

libdirs() {
  { echo "$root/usr/lib/chromium"; find "$root" -name 'lib*.so*' \( -type f -o -type l \) -printf '%h\n'; } | sort -u | tr '\n' ':'
}
missing() {
  LD_LIBRARY_PATH="$(libdirs)" ldd "$root/usr/lib/chromium/chromium" | grep 'not found' || true
}

fetch chromium
fetch chromium-common
round="chromium chromium-common"
while [ -n "$(missing)" ]; do
  next=""
  for dep in $(apt-cache depends $round | sed -n 's/^ *Depends: \(lib[^ <>]*\)$/\1/p' | sort -u); do
    case "$fetched" in *" $dep "*) continue ;; esac
    installed "$dep" && continue
    fetch "$dep"
    next="$next $dep"
  done
  if [ -z "$next" ]; then
    echo "chromium still lacks shared libraries after unpacking its library packages: $(missing | tr -s ' \n\t' ' ')" >&2
    exit 3
  fi
  round="$next"
done

echo "$fetched" | tr -s ' ' '\n' | sed '/^$/d' >"$cache.partial/packages"
# The loader path is fixed here, relative to the wrapper, so the cache can move with its folder.
dirs="$(libdirs | tr ':' '\n' | sed '/^$/d' | sed "s|^$cache.partial/|\$here/|" | tr '\n' ':')"
cat >"$cache.partial/chromium" <<WRAP
#!/bin/sh
here="\$(dirname "\$(readlink -f "\$0")")"
LD_LIBRARY_PATH="${dirs%:}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/root/usr/lib/chromium/chromium" "\$@"
WRAP
chmod 755 "$cache.partial/chromium"
if ! version="$("$cache.partial/chromium" --version 2>&1)"; then
  echo "the unpacked chromium does not start: $(echo "$version" | tail -n 1)" >&2
  exit 3
fi
rm -rf "$cache"
mv "$cache.partial" "$cache"
echo "$bin"
