/** The roster: every exact scope set with rows. */

export const ROSTER_SQL = `
  SELECT scopes FROM document
  UNION SELECT scopes FROM session_item
  UNION SELECT scopes FROM artifact
  ORDER BY scopes`
