import pg from 'pg'
import { listJobs } from '/work/wt-dash/dist/queue/list-jobs.js'
const pool = new pg.Pool({ connectionString: process.argv[2] })
const db = { query: async (sql, params) => {
  if (!/aizk_queue_count/.test(sql)) {
    const e = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params)
    const lines = e.rows.map((r) => r['QUERY PLAN'])
    console.log(lines.filter((l) => /Scan|Sort|Limit|Execution|Buffers: shared/.test(l)).slice(0, 14).join('\n'))
  }
  return pool.query(sql, params)
} }
for (const q of [{}, { state: 'queued' }, { state: 'scheduled' }, { state: 'held' }, { state: 'picked' }, { state: 'held', entrypoints: ['ep1'], afterId: '500000' }, { state: 'scheduled', afterId: '500000' }, { olderThanSeconds: 60, priorities: [2] }]) {
  console.log('==', JSON.stringify(q))
  const page = await listJobs(db, { limit: 50, ...q })
  console.log('-> rows', page.jobs.length, 'next', page.nextAfter, page.jobs.slice(0,2).map(j=>j.id+':'+j.state).join(' '))
}
await pool.end()
