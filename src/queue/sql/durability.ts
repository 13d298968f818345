/** Switching a queue table between LOGGED and UNLOGGED: the statements `aizk durability` runs. */

/** PgQueuer's four tables: the ones its durability levels name. */
export const DURABILITY_TABLES = ['pgqueuer', 'pgqueuer_log', 'pgqueuer_statistics', 'pgqueuer_schedules'] as const
export type DurabilityTable = (typeof DURABILITY_TABLES)[number]

export function alterPersistenceSql(table: DurabilityTable, persistence: 'LOGGED' | 'UNLOGGED'): string {
  return `ALTER TABLE ${table} SET ${persistence}`
}

/** Set inside the switch's transaction, so a lock held by a long job fails the switch instead of queueing every worker behind it. */
export function lockTimeoutSql(ms: number): string {
  return `SET LOCAL lock_timeout = ${Math.max(0, Math.floor(ms))}`
}
