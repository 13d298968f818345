#!/usr/bin/env bash
# Real English prose for the tests and benchmarks, from Debian packages unpacked into this user's
# cache (apt-get download + dpkg-deb -x; nothing is installed into the system, no root needed):
#   python3.11-doc  the Python documentation's text sources: the graph tests' corpus, and the
#                   projection benchmark's first 6,234 chunks of 2,000 characters;
#   perl-doc        with --bench only: Perl's manual pages (POD), the benchmark's next 3,766, so
#                   that it projects 10,000 distinct chunks at the product's chunk size;
#   debian-handbook, debian-history, debian-faq, debian-reference-en
#                   with --eval only: the sources of the graph evaluation's labeled passages;
#   debian-faq@trixie  with --eval only: the next release's FAQ (12.2), whose text states other
#                   current facts than 11.1's: the evaluation's undated contradictions.
#   debian-policy, developers-reference, installation-guide-amd64, git-doc, git (its RelNotes)
#                   with --eval only: the never-tuned packages of the evaluation
#                   (test/fixtures/graph-eval/packages/*.json).
#   debian-handbook, debian-reference-en, installation-guide-amd64, maint-guide, python3.11-doc,
#   developers-reference, bash-doc, git-doc, mandoc
#                   with --convert only: HTML from each documentation generator (DocBook XSL,
#                   Sphinx, texinfo, asciidoc, and mandoc to render a man page), the sources of
#                   the converter's fixtures (test/fixtures/convert/, docs/memory-graph.md,
#                   "Conversion").
# The cache is ${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/aizk}/debs/PACKAGE, unpacked once and
# reused. When the machine's apt lists do not know a package (an image that cleared them), lists
# of the cache's own are fetched (apt-get update into the cache) and the download retried.
# AIZK_CORPUS_DIR and AIZK_PERL_POD_DIR name folders to use instead.
# Prints the folders, one a line; fails with one line naming what is missing.
set -euo pipefail
cache="${AIZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aizk}"

fail() {
  echo "error: $*" >&2
  exit 1
}

# Downloads PACKAGE's .deb into the current folder, with the system's lists or the cache's own.
# PACKAGE@SUITE is taken from that Debian suite, with lists of the cache's own for it.
download() {
  local pkg=${1%@*} suite= out
  [ "$pkg" != "$1" ] && suite=${1#*@}
  [ -z "$suite" ] && apt-get download -qq "$pkg" >/dev/null 2>&1 && return
  local lists="$cache/apt${suite:+-$suite}/lists" apt_cache="$cache/apt${suite:+-$suite}/cache"
  local own=(-o "Dir::State::Lists=$lists" -o "Dir::Cache=$apt_cache" -o Debug::NoLocking=1)
  if [ -n "$suite" ]; then
    echo "deb http://deb.debian.org/debian $suite main" >"$cache/apt-$suite.list"
    own+=(-o "Dir::Etc::SourceList=$cache/apt-$suite.list" -o Dir::Etc::SourceParts=/dev/null)
  fi
  mkdir -p "$lists/partial" "$apt_cache/archives/partial"
  out=$(apt-get -qq "${own[@]}" update 2>&1 && apt-get -qq "${own[@]}" download "$pkg" 2>&1) ||
    fail "apt-get download $pkg failed, with this machine's package lists and with the cache's own ($(echo "$out" | tail -n1)): set AIZK_CORPUS_DIR (and AIZK_PERL_POD_DIR for --bench) to its folders"
}

# Prints the folder PACKAGE is unpacked in, unpacking it first when it is not cached yet.
unpacked() {
  local pkg=$1 dest="$cache/debs/$1" work
  if [ ! -f "$dest/.complete" ]; then
    command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
      fail "the corpus comes from Debian's $pkg, and this machine has no apt-get/dpkg-deb: set AIZK_CORPUS_DIR (and AIZK_PERL_POD_DIR for --bench) to its folders"
    mkdir -p "$cache/debs"
    work=$(mktemp -d "$cache/debs/.$pkg.XXXXXX")
    (cd "$work" && download "$pkg") || { rm -rf "$work"; exit 1; }
    dpkg-deb -x "$work"/*.deb "$work/root"
    basename "$work"/*.deb >"$work/root/.complete"
    # Renamed whole, so a folder that exists is complete; a concurrent run of this user that
    # got there first wins and this copy goes.
    mv -T "$work/root" "$dest" 2>/dev/null || true
    rm -rf "$work"
    [ -f "$dest/.complete" ] || fail "could not unpack $pkg into $dest"
  fi
  echo "$dest"
}

if [ -n "${AIZK_CORPUS_DIR:-}" ]; then
  corpus="$AIZK_CORPUS_DIR"
  [ -d "$corpus" ] || fail "AIZK_CORPUS_DIR=$corpus is not a folder"
else
  corpus="$(unpacked python3.11-doc)/usr/share/doc/python3.11/html/_sources"
  [ -d "$corpus" ] || fail "python3.11-doc holds no $corpus: set AIZK_CORPUS_DIR to the documentation's text sources"
fi
echo "$corpus"

if [ "${1:-}" = --bench ]; then
  if [ -n "${AIZK_PERL_POD_DIR:-}" ]; then
    pods="$AIZK_PERL_POD_DIR"
  else
    perl_doc=$(unpacked perl-doc)
    faq=$(find "$perl_doc/usr/share/perl" -path '*/pod/perlfaq1.pod' -print -quit 2>/dev/null || true)
    pods=$(dirname "${faq:-$perl_doc/usr/share/perl/pod/x}")
  fi
  [ -f "$pods/perlfaq1.pod" ] || fail "no Perl manual pages in $pods: set AIZK_PERL_POD_DIR to perl-doc's pod folder"
  echo "$pods"
fi

# --eval: the packages the graph evaluation's labeled passages were cut from
# (test/fixtures/graph-eval/passages.json; docs/memory-graph.md, "The evaluation"), one folder a
# line, for checking a passage against its source or labeling more.
if [ "${1:-}" = --eval ]; then
  for pkg in debian-handbook debian-history debian-faq debian-reference-en debian-policy \
    developers-reference installation-guide-amd64 git-doc git debian-faq@trixie; do
    unpacked "$pkg"
  done
  for pkg in \
    maint-guide \
    manpages \
    dpkg \
    debconf-doc \
    mandoc \
    bash-doc \
    postgresql-doc-15; do
    unpacked "$pkg"
  done
fi

# --convert: the packages the HTML converter's fixtures were cut from, one folder a line.
if [ "${1:-}" = --convert ]; then
  for pkg in debian-handbook debian-reference-en installation-guide-amd64 maint-guide python3.11-doc \
    developers-reference bash-doc git-doc mandoc; do
    unpacked "$pkg"
  done
fi
