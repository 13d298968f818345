/**
 * A text rendering of what the schema installs, function bodies included, pinned so any change to
 * it is a reviewed diff (test/fixtures/schema.snapshot.txt).
 */
import type pg from 'pg'

export async function schemaSnapshot(client: pg.ClientBase, appRole = 'aizk_app'): Promise<string> {
  const lines: string[] = []
  const q = async (title: string, sql: string, params: unknown[] = []) => {
    const { rows } = await client.query(sql, params)
    lines.push(`## ${title}`)
    for (const r of rows) lines.push(Object.values(r).join(' | '))
  }
  await q(
    'enums',
    `select t.typname, string_agg(e.enumlabel, ',' order by e.enumsortorder)
    from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
    where n.nspname = 'public' group by t.typname order by 1`,
  )
  await q(
    'columns',
    `select table_name, column_name, data_type, is_nullable, coalesce(column_default, '')
    from information_schema.columns where table_schema = 'public' and table_name <> 'aizk_schema_version'
    order by table_name, ordinal_position`,
  )
  await q(
    'constraints',
    `select conrelid::regclass::text, conname, pg_get_constraintdef(oid)
    from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`,
  )
  await q('indexes', `select indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`)
  await q(
    'triggers',
    `select pg_get_triggerdef(t.oid) from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and c.relnamespace = 'public'::regnamespace order by c.relname, t.tgname`,
  )
  await q('extensions', `select extname from pg_extension where extname <> 'plpgsql' order by 1`)
  await q(
    'functions',
    `select pg_get_functiondef(p.oid) from pg_proc p
    where p.pronamespace = 'public'::regnamespace
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by p.proname, pg_get_function_identity_arguments(p.oid)`,
  )
  await q(
    'function grants',
    `select p.proname, coalesce(array_to_string(array(
      select case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end from aclexplode(p.proacl) a
       where a.privilege_type = 'EXECUTE' and a.grantee <> p.proowner order by 1), ','), 'default')
    from pg_proc p where p.pronamespace = 'public'::regnamespace
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by 1, 2`,
  )
  await q(
    'row security',
    `select relname, relrowsecurity, relforcerowsecurity from pg_class
    where relnamespace = 'public'::regnamespace and relkind = 'r' and relrowsecurity order by 1`,
  )
  await q(
    'policies',
    `select tablename, policyname, cmd, roles::text, coalesce(qual, '') as qual, coalesce(with_check, '') as with_check
    from pg_policies where schemaname = 'public' order by 1, 2`,
  )
  await q(
    'app role grants',
    `select table_name, string_agg(privilege_type, ',' order by privilege_type)
    from information_schema.role_table_grants where grantee = $1 group by table_name order by 1`,
    [appRole],
  )
  await q('app role', `select rolsuper, rolbypassrls, rolcanlogin, rolcreaterole, rolcreatedb from pg_roles where rolname = $1`, [appRole])
  return `${lines.join('\n')}\n`
}
