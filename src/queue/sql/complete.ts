/** Completion through aizk_complete. */

export const COMPLETE = {
  name: 'aizk_complete',
  text: 'SELECT aizk_complete($1::bigint[], $2::uuid) AS n',
}
