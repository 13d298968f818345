#!/usr/bin/env bash
# Real English prose for the tests and benchmarks, from Debian packages installed when missing
# (as root; otherwise a one-line error naming the package):
#   python3.11-doc  the Python documentation's text sources: the graph tests' corpus, and the
#                   projection benchmark's first 6,234 chunks of 2,000 characters;
#   perl-doc        with --bench only: Perl's manual pages (POD), the benchmark's next 3,766, so
#                   that it projects 10,000 distinct chunks at the product's chunk size.
# Prints the folders, one a line.
set -euo pipefail
CORPUS_DIR="${AIZK_CORPUS_DIR:-/usr/share/doc/python3.11/html/_sources}"
POD_DIR="${AIZK_PERL_POD_DIR:-$(perl -MConfig -e 'print "$Config{privlib}/pod"')}"
missing=()
[ -d "$CORPUS_DIR" ] || missing+=(python3.11-doc)
if [ "${1:-}" = --bench ]; then
  [ -f "$POD_DIR/perlfaq1.pod" ] || missing+=(perl-doc)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: the corpus is missing; install Debian's ${missing[*]} (apt-get install ${missing[*]}) as root" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
if [ ! -d "$CORPUS_DIR" ]; then
  echo "error: python3.11-doc is installed but $CORPUS_DIR is missing; set AIZK_CORPUS_DIR to its text sources" >&2
  exit 1
fi
echo "$CORPUS_DIR"
if [ "${1:-}" = --bench ]; then
  if [ ! -f "$POD_DIR/perlfaq1.pod" ]; then
    echo "error: perl-doc is installed but $POD_DIR holds no manual pages; set AIZK_PERL_POD_DIR to its pod folder" >&2
    exit 1
  fi
  echo "$POD_DIR"
fi
