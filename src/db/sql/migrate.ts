/** The migration runner's own statements: the install lock and aizk_schema_version. */

export const TAKE_INSTALL_LOCK = 'select pg_advisory_lock($1, $2)'

export const CREATE_SCHEMA_VERSION = `create table if not exists aizk_schema_version (
      version int primary key, name text not null, checksum text not null,
      applied_at timestamptz not null default now())`

export const LOCK_QUEUE_FOR_DEDUPE_INDEX = 'LOCK TABLE pgqueuer IN SHARE ROW EXCLUSIVE MODE'

export const RECORD_MIGRATION = 'insert into aizk_schema_version (version, name, checksum) values ($1, $2, $3)'

export const RELEASE_INSTALL_LOCK = 'select pg_advisory_unlock($1, $2)'

export const READ_INSTALL_STATE = "select to_regclass('pgqueuer') is not null as pgq, to_regclass('aizk_schema_version') is not null as aizk"

export const SCHEMA_VERSION_EXISTS = "select to_regclass('aizk_schema_version') is not null as exists"

export const READ_APPLIED_VERSIONS = 'select version from aizk_schema_version'
