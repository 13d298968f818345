/** The schema installer's own statements: the install lock, aizk_schema_version and aizk_schema_definition. */

export const TAKE_INSTALL_LOCK = 'select pg_advisory_lock($1, $2)'

export const RELEASE_INSTALL_LOCK = 'select pg_advisory_unlock($1, $2)'

export const CREATE_SCHEMA_VERSION = `create table if not exists aizk_schema_version (
        version int primary key, name text not null, checksum text not null,
        applied_at timestamptz not null default now())`

export const CREATE_SCHEMA_DEFINITION = `create table if not exists aizk_schema_definition (
        name text primary key, checksum text not null, applied_at timestamptz not null default now())`

export const SCHEMA_TABLES_EXIST =
  "select to_regclass('aizk_schema_version') is not null as versions, to_regclass('aizk_schema_definition') is not null as definitions"

export const READ_APPLIED_MIGRATIONS = 'select version, name, checksum from aizk_schema_version'

export const READ_APPLIED_DEFINITIONS = 'select name, checksum from aizk_schema_definition'

export const RECORD_MIGRATION = 'insert into aizk_schema_version (version, name, checksum) values ($1, $2, $3)'

export const RECORD_DEFINITIONS = `insert into aizk_schema_definition (name, checksum) select * from unnest($1::text[], $2::text[])
         on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`

/** A definition whose file is gone was dropped by a migration; its record goes too. */
export const FORGET_REMOVED_DEFINITIONS = 'delete from aizk_schema_definition where name <> all($1::text[])'

export const LOCK_QUEUE_FOR_DEDUPE_INDEX = 'LOCK TABLE pgqueuer IN SHARE ROW EXCLUSIVE MODE'

export const READ_INSTALL_STATE = "select to_regclass('pgqueuer') is not null as pgq, to_regclass('aizk_schema_version') is not null as aizk"
