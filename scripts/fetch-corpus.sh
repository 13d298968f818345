#!/usr/bin/env bash
# The benchmark and end-to-end corpus: real English prose from Debian's python3.11-doc package
# (the Python documentation as text and HTML). Installs the package when it is missing; prints
# the folder of its text files.
set -euo pipefail
CORPUS_DIR="${AIZK_CORPUS_DIR:-/usr/share/doc/python3.11/html/_sources}"
if [ ! -d "$CORPUS_DIR" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: the corpus ($CORPUS_DIR) is missing; install Debian's python3.11-doc (apt-get install python3.11-doc) as root" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3.11-doc >&2
fi
if [ ! -d "$CORPUS_DIR" ]; then
  echo "error: python3.11-doc is installed but $CORPUS_DIR is missing; set AIZK_CORPUS_DIR to its text sources" >&2
  exit 1
fi
echo "$CORPUS_DIR"
