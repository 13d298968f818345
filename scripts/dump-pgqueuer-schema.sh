#!/usr/bin/env bash
# Regenerates test/fixtures/pgqueuer-1.3.sql: what PgQueuer 1.3.2's own Queries.install()
# creates, dumped by pg_dump (schema only). Needs scripts/setup-pgqueuer.sh first and a
# PostgreSQL server (AIZK_TEST_DATABASE_URL, default the machine's on 127.0.0.1:5432).
set -euo pipefail
cd "$(dirname "$0")/.."
base="${AIZK_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
src="${AIZK_PGQUEUER_SRC:-../shared/vendor/pgqueuer-1.3.2}"
db="aizk_pgq_dump_$$"
url="${base%/*}/$db"
psql -q "$base" -c "create database $db"
trap 'psql -q "$base" -c "drop database if exists $db"' EXIT
PYTHONPATH="$src" .venv-pgq/bin/python test/interop/py/pgq.py "$url" install >/dev/null
{
  echo "-- PgQueuer 1.3.2's schema as its own Queries.install() creates it, dumped by"
  echo "-- scripts/dump-pgqueuer-schema.sh (pg_dump --schema-only, without its psql-only \\restrict lines). Do not edit by hand."
  pg_dump --schema-only --no-owner --no-privileges "$url" | sed -e '/^-- Dumped from/d' -e '/^-- Dumped by/d' -e '/^\\restrict /d' -e '/^\\unrestrict /d'
} > test/fixtures/pgqueuer-1.3.sql
echo "wrote test/fixtures/pgqueuer-1.3.sql"
