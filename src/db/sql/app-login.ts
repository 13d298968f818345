/** What the app login can reach: the facts checkAppLogin judges. */

export const APP_LOGIN_FACTS = `SELECT session_user::text AS login, t.tableowner::text AS owner,
            pg_has_role(session_user, t.tableowner, 'MEMBER') AS reaches_owner,
            pg_has_role(session_user, $1, 'MEMBER') AS in_app_role,
            r.rolsuper AS superuser, r.rolbypassrls AS bypass,
            (SELECT string_agg(setting, ', ' ORDER BY setting) FROM (
               SELECT unnest(s.setconfig) AS setting FROM pg_db_role_setting s
                WHERE s.setrole = r.oid AND s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
               UNION SELECT name || '=' || current_setting(name) FROM pg_settings WHERE source IN ('user', 'database user')) found) AS role_settings
       FROM pg_roles r LEFT JOIN pg_tables t ON t.schemaname = current_schema() AND t.tablename = 'pgqueuer'
      WHERE r.rolname = session_user`
