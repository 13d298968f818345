/**
 * PgQueuer's change notification, sent by statements that move rows back to `queued` by
 * UPDATE: its statement trigger never notifies on UPDATE, so Python workers (and sleeping aizk
 * workers) would otherwise only see such rows when they poll.
 */
export const NOTIFY_CHANNEL = 'ch_pgqueuer'

/** A SQL expression that sends PgQueuer's `table_changed_event` payload for `operation`. */
export function notifySql(operation: 'update' | 'insert' | 'delete'): string {
  return `pg_notify('${NOTIFY_CHANNEL}', json_build_object('channel', '${NOTIFY_CHANNEL}', 'operation', '${operation}', 'sent_at', now(), 'table', 'pgqueuer', 'type', 'table_changed_event')::text)`
}

/** bigint id strings as one array literal: cheaper than letting the driver build it per call. */
export function idArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`
}
