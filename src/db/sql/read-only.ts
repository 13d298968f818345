/** Whether the server can write, for one that reports neither parameter (before PostgreSQL 14). */
export const READ_ONLY_SQL = `SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') = 'on' AS read_only`
