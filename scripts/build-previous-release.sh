#!/usr/bin/env bash
# Prints the folder of the previous release of aizk, built, for the rolling-upgrade tests
# (docs/deployment.md#upgrading). The previous release is the newest `## X.Y.Z (date, tag
# `vX.Y.Z`, commit C)` heading of CHANGELOG.md: its tag when this clone has it, else the commit
# the heading names (a clone of main alone has no tags). The tree is exported with `git archive`
# into CACHE/releases/COMMIT (CACHE: $AIZK_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/aizk) and
# built there once, as its package.json's build:dev builds (tsc, then the schema files copied;
# no oclif manifest: oclif then finds the commands by scanning dist/commands).
# Its dependencies: when its package-lock.json lists the same packages as this tree's, this
# tree's node_modules is linked; otherwise `npm ci --ignore-scripts` installs its own (network).
# Exit 3 with one line on stderr when that is not possible (a shallow clone without the commit,
# no release heading, npm failing): the tests skip with that line, `.ci/run` fails on it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}/releases"

heading="$(grep -m1 -E '^## [0-9]+\.[0-9]+\.[0-9]+ \(.*tag `v[0-9.]+`, commit [0-9a-f]{7,40}\)' "$repo/CHANGELOG.md" || true)"
if [ -z "$heading" ]; then
  echo "CHANGELOG.md names no released version (a heading '## X.Y.Z (DATE, tag \`vX.Y.Z\`, commit HASH)')" >&2
  exit 3
fi
tag="$(sed -E 's/.*tag `(v[0-9.]+)`.*/\1/' <<<"$heading")"
named="$(sed -E 's/.*commit ([0-9a-f]+)\).*/\1/' <<<"$heading")"
if commit="$(git -C "$repo" rev-parse -q --verify "refs/tags/$tag^{commit}" 2>/dev/null)"; then
  source="tag $tag"
elif commit="$(git -C "$repo" rev-parse -q --verify "$named^{commit}" 2>/dev/null)"; then
  source="commit $named (CHANGELOG; no tag $tag in this clone)"
else
  echo "the previous release ($tag, commit $named) is not in this clone (shallow or main only): fetch it with \`git fetch --unshallow --tags\`" >&2
  exit 3
fi

dir="$cache/$commit"
# A built tree whose linked node_modules is gone (the tree it pointed at was removed) is built again.
if [ -f "$dir/.built" ] && [ -e "$dir/node_modules/.bin/tsc" ]; then
  echo "$dir"
  exit 0
fi
echo "building the previous release ($source, $commit) in $dir" >&2
mkdir -p "$cache"
partial="$dir.partial.$$"
trap 'rm -rf "$partial"' EXIT
mkdir "$partial"
git -C "$repo" archive "$commit" | tar -x -C "$partial"

# The dependency sets compared without the root entry (it carries the package's own version).
same_dependencies="$(node -e '
  const fs = require("node:fs")
  const packages = (f) => { const p = { ...JSON.parse(fs.readFileSync(f, "utf8")).packages }; delete p[""]; return JSON.stringify(p) }
  process.stdout.write(String(packages(process.argv[1]) === packages(process.argv[2])))
' "$partial/package-lock.json" "$repo/package-lock.json")"
if [ "$same_dependencies" = true ] && [ -d "$repo/node_modules" ]; then
  ln -s "$repo/node_modules" "$partial/node_modules"
elif ! (cd "$partial" && npm ci --ignore-scripts --no-audit --no-fund >"$partial/npm-ci.log" 2>&1); then
  echo "npm ci for the previous release ($commit) failed: $(tail -n 1 "$partial/npm-ci.log")" >&2
  exit 3
fi
if ! (cd "$partial" && node_modules/.bin/tsc -p tsconfig.build.json >"$partial/tsc.log" 2>&1); then
  echo "tsc for the previous release ($commit) failed: $(head -n 1 "$partial/tsc.log")" >&2
  exit 3
fi
mkdir -p "$partial/dist/db"
cp -r "$partial/src/db/migrations" "$partial/src/db/definitions" "$partial/dist/db/"
touch "$partial/.built"
rm -rf "$dir"
mv "$partial" "$dir"
echo "$dir"
