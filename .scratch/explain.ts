import pg from 'pg'
import { migrate } from '../src/db/migrate.ts'
import { loadDedupEntities } from '../bench/graph-passes.ts'
import { corpusWords } from '../bench/graph-data.ts'
import { corpusFiles } from '../test/graph/helpers/corpus.ts'
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' }); await admin.connect()
const fresh = process.env.FRESH === '1'
if (fresh) { await admin.query('drop database if exists aizk_i13_dedup with (force)'); await admin.query('create database aizk_i13_dedup') }
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/aizk_i13_dedup' })
pool.on('error', () => {})
const scopes = ['11111111-0000-4000-8000-00000000000e']
if (fresh) { const c = await pool.connect(); await migrate(c, { appRole: 'aizk_app' }); c.release(); await loadDedupEntities(pool, scopes, Number(process.env.N ?? 100000), corpusWords(corpusFiles())) }
console.log('loaded')
await pool.end(); await admin.end()
