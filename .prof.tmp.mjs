import pg from 'pg'
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/i15b_prof' })
await c.connect()
const N = 1000
const items = Array.from({ length: N }, (_, i) => ({ entrypoint: 'bench_noop', payload: { i } }))
const MANY = (oc, ord) => `INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  SELECT p, e, pl, 'queued', k, coalesce(ea, now()), h
    FROM unnest($1::int[], $2::text[], $3::bytea[], $4::text[], $5::timestamptz[], $6::jsonb[]) WITH ORDINALITY AS t(p, e, pl, k, ea, h, ord)
   ${ord ? 'ORDER BY ord' : ''} ${oc ? 'ON CONFLICT DO NOTHING' : ''} RETURNING id, dedupe_key`
const JSONV = `INSERT INTO pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
  SELECT p, e, convert_to(pl::text, 'UTF8'), 'queued', k, coalesce(ea, now()), h
    FROM ROWS FROM (unnest($1::int[]), unnest($2::text[]), json_array_elements($3::json), unnest($4::text[]), unnest($5::timestamptz[]), unnest($6::jsonb[])) WITH ORDINALITY AS t(p, e, pl, k, ea, h, ord)
   ORDER BY ord RETURNING id`
const arrVals = () => [items.map((i) => 0), items.map((i) => i.entrypoint), items.map((i) => Buffer.from(JSON.stringify(i.payload))), items.map(() => null), items.map(() => null), items.map(() => null)]
const jsonVals = () => [items.map((i) => 0), items.map((i) => i.entrypoint), JSON.stringify(items.map((i) => i.payload)), [], [], []]
const variants = {
  today: { text: MANY(true, true), vals: arrVals },
  no_oc: { text: MANY(false, true), vals: arrVals },
  no_oc_no_ord: { text: MANY(false, false), vals: arrVals },
  json_payload: { text: JSONV, vals: jsonVals },
}
const cpu = async () => Number((await c.query(`SELECT (f[12]::bigint + f[13]::bigint) * 10 AS ms FROM (SELECT string_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') AS f) s`)).rows[0].ms)
const acc = {}
for (let r = 0; r < 4; r++) for (const [name, v] of Object.entries(variants)) {
  await c.query('TRUNCATE pgqueuer')
  const s0 = await cpu(); const u0 = process.cpuUsage(); const t0 = performance.now()
  for (let k = 0; k < 20; k++) await c.query({ name, text: v.text, values: v.vals() })
  const wall = performance.now() - t0; const u = process.cpuUsage(u0); const s1 = await cpu()
  ;(acc[name] ??= []).push(`srv ${((s1 - s0) / 20).toFixed(1)} node ${((u.user + u.system) / 1000 / 20).toFixed(1)} wall ${(wall / 20).toFixed(1)}`)
}
for (const [k, v] of Object.entries(acc)) console.log(k.padEnd(14), v.join(' | '))
const chk = await c.query(`SELECT encode(payload,'escape') p FROM pgqueuer ORDER BY id LIMIT 2`); console.log(chk.rows)
await c.query('TRUNCATE pgqueuer'); await c.end()
