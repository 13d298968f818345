#!/usr/bin/env bash
# What the test suite reads besides the code, made ready before `npm test` runs it (npm's pretest):
# the real-prose corpus of the graph tests (Debian's python3.11-doc, unpacked into the user's
# cache by scripts/fetch-corpus.sh; nothing is installed into the system) and the Python side of
# the PgQueuer interop suite (.venv-pgq). Both steps are quick once done. Without Python the
# interop suite still runs and fails with one line naming what is missing, so that step does not
# stop the others.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fetch-corpus.sh >/dev/null
scripts/setup-pgqueuer.sh >/dev/null || echo "PgQueuer setup failed: the interop suite will name what is missing" >&2
