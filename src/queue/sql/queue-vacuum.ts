/** The worker's vacuum of the queue table: PostgreSQL's churn counters, the right to vacuum, the VACUUM. */

export const QUEUE_CHURN = `SELECT (s.n_tup_upd + s.n_tup_del)::text AS changed, (s.vacuum_count + s.autovacuum_count)::text AS vacuums
       FROM pg_stat_user_tables s WHERE s.relid = 'pgqueuer'::regclass`

/** VACUUM needs the table's owner, the database's owner or a superuser (by membership with inherit). */
export const VACUUM_ALLOWED = `SELECT pg_has_role(current_user, c.relowner, 'USAGE')
            OR pg_has_role(current_user, d.datdba, 'USAGE')
            OR (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user) AS allowed
       FROM pg_class c, pg_database d
      WHERE c.oid = 'pgqueuer'::regclass AND d.datname = current_database()`

/** Another worker's (or autovacuum's) VACUUM of the table already running: skip, not wait. */
export const QUEUE_VACUUM = 'VACUUM (SKIP_LOCKED) pgqueuer'
