/** The pick through aizk_pick, durable or on a lease. */

export const PICK_ARGS = 'aizk_pick($1, $2, $3, $4, $5, $6, $7, $8)'

export const LEASE_PICK_NAME = 'aizk_pick_lease'

/** A pick that carries completions: those must be durable, so it commits as usual. */
export const DURABLE_PICK = {
  name: 'aizk_pick',
  text: `SELECT * FROM ${PICK_ARGS}`,
}

/**
 * A pick that carries no completions is only a lease: its commit does not wait for the WAL
 * flush (docs/job-lifecycle.md#durability-of-a-pick). A crash that loses it leaves the rows
 * `queued` and they run again, as after a worker killed mid-job; any later synchronous commit
 * on the server (an enqueue, a completion) flushes it first. The filter runs once per picked
 * row, so it is set exactly when the pick took rows; it matters only at commit.
 */
export const PICK_LEASE = {
  name: LEASE_PICK_NAME,
  text: `SELECT * FROM ${PICK_ARGS} WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL`,
}
