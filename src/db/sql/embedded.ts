/** The embedded server's bootstrap statements. */

export const DATABASE_EXISTS = 'select 1 from pg_database where datname = $1'

/** `quotedName` is already an escaped identifier (client.escapeIdentifier). */
export function createDatabaseSql(quotedName: string): string {
  return `create database ${quotedName}`
}
