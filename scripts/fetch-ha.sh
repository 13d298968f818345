#!/usr/bin/env bash
# Prints the paths of the parts the failover test (test/ha/) runs: Patroni, patronictl, etcd and
# HAProxy, one `name path` line each. Debian's patroni, etcd-server and haproxy packages are
# downloaded (apt-get download, no install: no system package changes) and unpacked (dpkg-deb -x)
# into ${AIZK_HA_CACHE:-CACHE/ha} (CACHE: $AIZK_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/aizk),
# once, with every Python module and shared library they depend on that the machine lacks,
# unpacked beside them. Patroni runs on the machine's /usr/bin/python3 (Debian's packages are
# built for it); the printed paths are wrappers that point Python and the loader there.
# Exit 3 with one line on stderr when that is not possible (no apt, no network, no python3).
set -euo pipefail
cache="${AIZK_HA_CACHE:-${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/ha}"
tools=(patroni patronictl etcd haproxy)
print_paths() {
  for t in "${tools[@]}"; do echo "$t $cache/bin/$t"; done
}
works() {
  "$cache/bin/patroni" --version >/dev/null 2>&1 && "$cache/bin/patronictl" version >/dev/null 2>&1 &&
    "$cache/bin/etcd" --version >/dev/null 2>&1 && "$cache/bin/haproxy" -v >/dev/null 2>&1
}
if works; then
  print_paths
  exit 0
fi
for tool in apt-get apt-cache dpkg-deb dpkg-query ldd; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Patroni, etcd and HAProxy are not in $cache and $tool is missing: run on Debian 12, or unpack them there" >&2
    exit 3
  fi
done
if [ ! -x /usr/bin/python3 ]; then
  echo "Patroni needs Debian's /usr/bin/python3, which this machine lacks: run on Debian 12" >&2
  exit 3
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp" # apt's unprivileged _apt user writes the download here when run as root
mkdir -p "$tmp/debs" "$tmp/root"
chmod 777 "$tmp/debs"
download() {
  if ! (cd "$tmp/debs" && apt-get download "$1" >"$tmp/apt.log" 2>&1); then
    echo "could not download Debian's $1 package: $(tail -n 1 "$tmp/apt.log")" >&2
    exit 3
  fi
}
installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
# The packages' dependencies (the first of each set of alternatives: python3-etcd for Patroni's
# store), followed until every Python module and library is on the machine or unpacked here.
# Virtual packages (<...>) and the interpreter itself are the machine's.
first_alternatives() {
  apt-cache depends --no-recommends --no-suggests --no-enhances "$1" | awk '
    /^ *\|?(Pre)?Depends: / {
      alt = ($1 ~ /^\|/); name = $2
      if (!inalt && name !~ /^</) print name
      inalt = alt
    }'
}
queue=(patroni etcd-server haproxy)
declare -A seen=()
while [ "${#queue[@]}" -gt 0 ]; do
  pkg="${queue[0]}"
  queue=("${queue[@]:1}")
  [ -n "${seen[$pkg]:-}" ] && continue
  seen[$pkg]=1
  download "$pkg"
  for dep in $(first_alternatives "$pkg"); do
    dep="${dep%%:*}"
    case "$dep" in python3 | python3-minimal | libpython3*) continue ;; esac
    case "$dep" in python3-* | lib*) ;; *) continue ;; esac
    installed "$dep" || queue+=("$dep")
  done
done
for deb in "$tmp"/debs/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done

rm -rf "$cache.partial"
mkdir -p "$cache.partial/bin" "$cache.partial/lib" "$cache.partial/libexec"
cp -a "$tmp/root/usr/lib/python3/dist-packages" "$cache.partial/python"
install -m 755 "$tmp/root/usr/bin/patroni" "$cache.partial/libexec/patroni"
install -m 755 "$tmp/root/usr/bin/patronictl" "$cache.partial/libexec/patronictl"
install -m 755 "$tmp/root/usr/bin/etcd" "$cache.partial/libexec/etcd"
install -m 755 "$tmp/root/usr/sbin/haproxy" "$cache.partial/libexec/haproxy"
find "$tmp/root" -name 'lib*.so*' -not -path '*/dist-packages/*' \( -type f -o -type l \) -exec cp -a {} "$cache.partial/lib/" \;
# Wrappers that find their parts beside them, wherever the folder is copied (the test copies it
# where the postgres OS user can read it when run as root).
for py in patroni patronictl; do
  cat >"$cache.partial/bin/$py" <<WRAP
#!/bin/sh
here="\$(dirname "\$(dirname "\$(readlink -f "\$0")")")"
PYTHONPATH="\$here/python" PYTHONNOUSERSITE=1 exec /usr/bin/python3 "\$here/libexec/$py" "\$@"
WRAP
done
for native in etcd haproxy; do
  cat >"$cache.partial/bin/$native" <<WRAP
#!/bin/sh
here="\$(dirname "\$(dirname "\$(readlink -f "\$0")")")"
LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/libexec/$native" "\$@"
WRAP
done
chmod 755 "$cache.partial"/bin/*
missing="$(LD_LIBRARY_PATH="$cache.partial/lib" ldd "$cache.partial/libexec/haproxy" | grep 'not found' || true)"
if [ -n "$missing" ]; then
  echo "HAProxy still lacks shared libraries after unpacking its dependencies: $(echo "$missing" | tr -s ' \n' ' ')" >&2
  exit 3
fi
if ! err="$("$cache.partial/bin/patroni" --version 2>&1)"; then
  echo "the unpacked Patroni does not run on /usr/bin/python3: $(echo "$err" | tail -n 1)" >&2
  exit 3
fi
rm -rf "$cache"
mv "$cache.partial" "$cache"
if ! works; then
  echo "the unpacked Patroni, etcd or HAProxy in $cache does not run (try each with --version)" >&2
  exit 3
fi
print_paths
