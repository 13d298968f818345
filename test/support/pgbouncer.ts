/**
 * A PgBouncer of the caller's own (Debian's package, unpacked into a cache by
 * scripts/fetch-pgbouncer.sh; nothing installed), in front of a PostgreSQL server: transaction
 * pooling, trust auth, on a free port, with a generated config in a temporary folder. The test
 * suite and the bench start one as the test runner starts PostgreSQL, and stop it after.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The PgBouncer binary, or why there is none (the caller skips with that reason). */
export function pgbouncerBinary(): { path: string } | { skip: string } {
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts', 'fetch-pgbouncer.sh')], { encoding: 'utf8', timeout: 300_000 })
  if (r.status === 0) return { path: r.stdout.trim() }
  return { skip: `PgBouncer unavailable: ${(r.stderr || r.error?.message || 'scripts/fetch-pgbouncer.sh failed').trim()}` }
}

export interface PgBouncerOptions {
  /** The PostgreSQL server it pools (any database on it, by name). */
  server: string
  /** Server connections per database and user: the pool. */
  poolSize: number
  maxClients?: number
  /** Hand out server connections in turn (`server_round_robin = 1`), not the last one used. */
  roundRobin?: boolean
  /** Logins besides the server URL's that clients may connect as, with their passwords (the server may ask). */
  users?: Record<string, string>
}

/** Per database: server connections PgBouncer holds now, and clients waiting for one. */
export interface PoolUse {
  database: string
  servers: number
  waiting: number
}

export interface PgBouncer {
  port: number
  pid: number
  /** `database` on the pooled server, through this PgBouncer. */
  url(database: string): string
  pools(): Promise<PoolUse[]>
  /** Server connections PgBouncer has open to `database`, by SHOW SERVERS. */
  servers(database: string): Promise<number>
  log(): string
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

/**
 * Clients reach PgBouncer by trust; PgBouncer reaches the server as the URL's user, with its
 * password when it has one (the embedded test server asks for one, by SCRAM).
 */
function serverPassword(server: URL, user: string): string {
  if (!server.password) return ''
  const password = decodeURIComponent(server.password).replaceAll("'", "''")
  return ` user=${user} password='${password}'`
}

export async function startPgBouncer(binary: string, o: PgBouncerOptions): Promise<PgBouncer> {
  const server = new URL(o.server)
  const user = decodeURIComponent(server.username || 'postgres')
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-pgbouncer-'))
  const port = await freePort()
  const others = Object.entries(o.users ?? {})
  const quote = (v: string) => v.replaceAll('"', '""')
  writeFileSync(
    path.join(dir, 'users.txt'),
    [[user, others.length ? decodeURIComponent(server.password) : ''], ...others].map(([u, p]) => `"${quote(u)}" "${quote(p)}"\n`).join(''),
  )
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    `[databases]
* = host=${server.hostname} port=${server.port || 5432}${others.length ? '' : serverPassword(server, user)}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'users.txt')}
admin_users = ${user}
pool_mode = transaction
default_pool_size = ${o.poolSize}
max_db_connections = ${o.poolSize}
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = ${o.maxClients ?? 1000}
server_round_robin = ${o.roundRobin ? 1 : 0}
server_reset_query =
log_connections = 0
log_disconnections = 0
logfile =
pidfile =
`,
  )
  // PgBouncer refuses to run as root: it drops to nobody, who must read the config.
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    chmodSync(dir, 0o755)
    for (const f of ['users.txt', 'pgbouncer.ini']) chmodSync(path.join(dir, f), 0o644)
  }
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = (database: string) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`
  const admin = async <T>(sql: string): Promise<T[]> => {
    const c = new pg.Client({ connectionString: url('pgbouncer') })
    await c.connect()
    try {
      return (await c.query(sql)).rows as T[]
    } finally {
      await c.end()
    }
  }
  for (let i = 0; ; i++) {
    try {
      await admin('SHOW VERSION')
      break
    } catch (err) {
      if (child.exitCode !== null || i > 100) {
        child.kill('SIGKILL')
        rmSync(dir, { recursive: true, force: true })
        throw new Error(`PgBouncer did not start: ${(err as Error).message}\n${output}`)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  type PoolRow = { database: string; sv_active: string; sv_idle: string; sv_used: string; sv_tested: string; sv_login: string; cl_waiting: string }
  return {
    port,
    pid: child.pid as number,
    url,
    async pools() {
      const rows = await admin<PoolRow>('SHOW POOLS')
      return rows.map((r) => ({
        database: r.database,
        servers: [r.sv_active, r.sv_idle, r.sv_used, r.sv_tested, r.sv_login].reduce((a, b) => a + Number(b), 0),
        waiting: Number(r.cl_waiting),
      }))
    },
    async servers(database) {
      return (await admin<{ database: string }>('SHOW SERVERS')).filter((s) => s.database === database).length
    },
    log: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
