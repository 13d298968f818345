#!/usr/bin/env bash
# Prepares the Python side of the interop suite (test/interop): a virtualenv inside the project
# (.venv-pgq, gitignored) with PgQueuer's dependencies. PgQueuer itself is not installed: the
# tests import it from its source folder (AIZK_PGQUEUER_SRC, default ../shared/vendor/pgqueuer-1.3.2).
# The package index is whatever pip on this machine is configured with (`pip config list`): its
# index URLs are passed as --index-url so pip does not wait on an index it cannot reach.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${AIZK_PGQUEUER_VENV:-.venv-pgq}"
python="${PYTHON:-python3}"
packages=(asyncpg anyio croniter tabulate pydantic pydantic-settings typer uvloop)
src="${AIZK_PGQUEUER_SRC:-../shared/vendor/pgqueuer-1.3.2}"

# Without the source at its default place the interop suite skips itself: nothing to prepare.
if [ -z "${AIZK_PGQUEUER_SRC:-}" ] && [ ! -d "$src/pgqueuer" ]; then
  echo "note: PgQueuer source not found at $src (set AIZK_PGQUEUER_SRC); the interop suite will be skipped" >&2
  exit 0
fi

if ! command -v "$python" >/dev/null 2>&1; then
  echo "error: $python not found: the PgQueuer interop suite needs Python 3.10 or newer" >&2
  exit 3
fi

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv"
fi

# The configured indexes (index-url and extra-index-url, space separated), first one primary.
indexes=$("$python" -m pip config list 2>/dev/null | sed -nE "s/^[^=]*\.(extra-)?index-url='(.*)'$/\2/p" | tr ' ' '\n' | sed '/^$/d')
args=()
first=1
for url in $indexes; do
  if [ "$first" = 1 ]; then args+=(--index-url "$url"); first=0; else args+=(--extra-index-url "$url"); fi
done

if "$venv/bin/python" -c 'import asyncpg, anyio, croniter, tabulate, pydantic_settings, typer, uvloop' 2>/dev/null; then
  echo "PgQueuer dependencies already in $venv"
else
  "$venv/bin/pip" install -q "${args[@]}" "${packages[@]}" 2> >(grep -v "is ignored: it is neither" >&2)
fi

if [ -d "$src/pgqueuer" ]; then
  PYTHONPATH="$src" "$venv/bin/python" -c 'import pgqueuer.qm, pgqueuer.queries' && echo "PgQueuer importable from $src"
else
  echo "warning: PgQueuer source not found at $src (AIZK_PGQUEUER_SRC); the interop suite will fail" >&2
fi
