import pg from 'pg'
import { migrate } from '../src/db/migrate.ts'
import { benchDedup } from '../bench/graph-passes.ts'
import { corpusWords } from '../bench/graph-data.ts'
import { corpusFiles } from '../test/graph/helpers/corpus.ts'
import { similarPairs, sameNameGroups } from '../src/graph/sql/dedup-sql.ts'
import { User } from '../src/scope/user.ts'
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' }); await admin.connect()
await admin.query('drop database if exists aizk_i13_dedup with (force)'); await admin.query('create database aizk_i13_dedup')
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/aizk_i13_dedup' })
const c = await pool.connect(); await migrate(c, { appRole: 'aizk_app' }); c.release()
const set = ['11111111-0000-4000-8000-00000000000b']
const scopes = ['11111111-0000-4000-8000-00000000000e']
const origTx = User.prototype.transaction
// time phases
const words = corpusWords(corpusFiles())
const N = Number(process.env.N ?? 5000)
// load only: monkeypatch by running benchDedup with a timer around phases
await User.system(scopes).transaction(pool, async () => {})
const t = performance.now()
await pool.query('select 1')
const r = await benchDedup(pool, set, N, words)
console.log(r)
await pool.end(); await admin.query('drop database if exists aizk_i13_dedup with (force)'); await admin.end()
