/** The server version pg_dump must match. */

export const SERVER_VERSION_NUM = "SELECT current_setting('server_version_num') AS v"
