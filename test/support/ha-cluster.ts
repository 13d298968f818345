/**
 * A highly available PostgreSQL of the test's own: two PostgreSQL 15 nodes (the machine's
 * /usr/lib/postgresql/15/bin) under Patroni with one etcd, and HAProxy sending clients to the
 * leader by Patroni's REST check (`GET /primary`), all on free local ports with their data in one
 * temporary folder. The parts are Debian's packages unpacked by scripts/fetch-ha.sh (nothing
 * installed). As root, PostgreSQL refuses to run, so Patroni (which runs it) runs as the
 * `postgres` OS user from a copy of its files that user can read. `stop()` ends only the processes
 * started here (and the postmasters of its own data folders), then removes the folder.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { repoRoot } from './cli.js'
import { haproxyConfig, type NodePorts, PG_BIN, patroniConfig } from './ha-config.js'
import { waitFor } from './wait-for.js'
import { freePort } from './worker-process.js'

const run = promisify(execFile)

export interface HaParts {
  patroni: string
  patronictl: string
  etcd: string
  haproxy: string
}

/** The parts, or why there are none (the caller skips with that reason). */
export function haParts(): HaParts | { skip: string } {
  if (!existsSync(path.join(PG_BIN, 'postgres'))) return { skip: `PostgreSQL 15 is not at ${PG_BIN} (Debian's postgresql-15)` }
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts', 'fetch-ha.sh')], { encoding: 'utf8', timeout: 600_000 })
  if (r.status !== 0) return { skip: `Patroni, etcd or HAProxy unavailable: ${(r.stderr || r.error?.message || 'scripts/fetch-ha.sh failed').trim()}` }
  const found = Object.fromEntries(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ', 2)),
  )
  return { patroni: found.patroni, patronictl: found.patronictl, etcd: found.etcd, haproxy: found.haproxy }
}

interface Node extends NodePorts {
  config: string
  patroni?: ChildProcess
}

export interface HaCluster {
  /** The `postgres` database through HAProxy: what workers and clients use. */
  url: string
  nodeNames: string[]
  /** `postgres` on one node directly (bypassing HAProxy). */
  nodeUrl(name: string): string
  /** The member Patroni names leader now, or undefined. */
  leader(): Promise<string | undefined>
  /** Members and their roles (`leader`, `sync_standby`, `replica`) by Patroni's /cluster. */
  members(): Promise<{ name: string; role: string; state: string }[]>
  patronictl(args: string[]): Promise<string>
  /** SIGKILL the node's Patroni and its postmaster: a machine that died. */
  kill(name: string): Promise<void>
  /**
   * Freezes the leader's WAL senders (SIGSTOP): it goes on acknowledging commits no replica
   * receives, as behind a slow link. Returns their end (SIGKILL), for after the leader's kill.
   */
  stallReplication(leader: string): Promise<() => void>
  /** Start the node's Patroni again (its data folder as it was left). */
  restart(name: string): void
  /** Turns Patroni's synchronous_mode on or off, and waits until the roles show it. */
  setSynchronous(on: boolean): Promise<void>
  /** Waits until `count` members run, one leader and the others replicas, and HAProxy reaches the leader. */
  settled(count: number, guardMs?: number): Promise<string>
  log(): string
  stop(): Promise<void>
}

export interface HaOptions {
  synchronous: boolean
}

export async function startHaCluster(parts: HaParts, o: HaOptions): Promise<HaCluster> {
  const asRoot = process.getuid?.() === 0
  const postgresIds = asRoot
    ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }
    : undefined
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-ha-'))
  chmodSync(dir, 0o755)
  // Patroni's files where the postgres user can read them (the cache may sit under a mode-700 home).
  let patroniBin = parts.patroni
  if (asRoot) {
    const copy = path.join(dir, 'parts')
    cpSync(path.dirname(path.dirname(parts.patroni)), copy, { recursive: true })
    patroniBin = path.join(copy, 'bin', 'patroni')
  }
  const children: ChildProcess[] = []
  let output = ''
  const collect = (name: string, child: ChildProcess) => {
    children.push(child)
    const add = (d: Buffer) => {
      output += d
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => `[${name}] ${l}\n`)
        .join('')
      if (output.length > 400_000) output = output.slice(-200_000)
    }
    child.stdout?.on('data', add)
    child.stderr?.on('data', add)
    const killOnExit = () => child.kill('SIGKILL')
    process.once('exit', killOnExit)
    child.once('exit', () => process.off('exit', killOnExit))
  }
  const [etcdClient, etcdPeer, haPort] = [await freePort(), await freePort(), await freePort()]
  const etcdDir = path.join(dir, 'etcd')
  const etcdChild = spawn(
    parts.etcd,
    [
      `--name=etcd0`,
      `--data-dir=${etcdDir}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=etcd0=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  collect('etcd', etcdChild)

  const nodes: Node[] = []
  for (const name of ['node1', 'node2']) {
    const nodeDir = path.join(dir, name)
    mkdirSync(nodeDir, { mode: 0o700 })
    if (postgresIds) chownSync(nodeDir, postgresIds.uid, postgresIds.gid)
    const node: Node = { name, pgPort: await freePort(), restPort: await freePort(), dir: nodeDir, config: path.join(dir, `${name}.yml`) }
    writeFileSync(node.config, patroniConfig(node, etcdClient, o))
    chmodSync(node.config, 0o644)
    nodes.push(node)
  }
  const byName = (name: string) => {
    const n = nodes.find((x) => x.name === name)
    if (!n) throw new Error(`no node ${name} in this cluster`)
    return n
  }
  const startPatroni = (node: Node) => {
    node.patroni = spawn(patroniBin, [node.config], {
      cwd: node.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: node.dir, LC_ALL: 'C.UTF-8' },
      ...(postgresIds ?? {}),
    })
    collect(node.name, node.patroni)
  }

  const haConfig = path.join(dir, 'haproxy.cfg')
  writeFileSync(haConfig, haproxyConfig(haPort, nodes))
  const rest = async (node: Node, p: string) => {
    const res = await fetch(`http://127.0.0.1:${node.restPort}${p}`, { signal: AbortSignal.timeout(1000) })
    return { status: res.status, body: await res.text() }
  }
  const members = async () => {
    for (const node of nodes) {
      try {
        const { body } = await rest(node, '/cluster')
        return (JSON.parse(body).members as { name: string; role: string; state: string }[]).map(({ name, role, state }) => ({ name, role, state }))
      } catch {}
    }
    return []
  }
  const postmasterPid = (node: Node): number | undefined => {
    try {
      return Number(readFileSync(path.join(node.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined
    } catch {
      return undefined
    }
  }
  const signal = (pid: number | undefined, sig: NodeJS.Signals) => {
    if (!pid) return
    try {
      process.kill(pid, sig)
    } catch {}
  }
  const alive = (pid: number | undefined) => {
    if (!pid) return false
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  const exited = (child: ChildProcess | undefined) =>
    new Promise<void>((resolve) => (!child || child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())))

  let synchronous = o.synchronous
  // A test process that ends without stop() still leaves no server behind (its children are
  // killed by `collect`; the postmasters are not its children).
  const killPostmasters = () => {
    for (const node of nodes) signal(postmasterPid(node), 'SIGKILL')
  }
  process.once('exit', killPostmasters)
  const cluster: HaCluster = {
    url: `postgres://postgres@127.0.0.1:${haPort}/postgres`,
    nodeNames: nodes.map((n) => n.name),
    nodeUrl: (name) => `postgres://postgres@127.0.0.1:${byName(name).pgPort}/postgres`,
    members,
    async leader() {
      return (await members()).find((m) => m.role === 'leader' && m.state === 'running')?.name
    },
    async patronictl(args) {
      const { stdout } = await run(parts.patronictl, ['-c', nodes[0].config, ...args], { timeout: 60_000 })
      return stdout
    },
    async kill(name) {
      const node = byName(name)
      const postmaster = postmasterPid(node)
      signal(node.patroni?.pid, 'SIGKILL')
      signal(postmaster, 'SIGKILL')
      await exited(node.patroni)
      await waitFor(`${name}'s postmaster ending`, () => !alive(postmaster), { timeoutMs: 10_000 })
    },
    async setSynchronous(on) {
      await cluster.patronictl(['edit-config', '--set', `synchronous_mode=${on}`, '--force'])
      synchronous = on
      await waitFor(`synchronous_mode ${on}`, async () => (await members()).some((m) => m.role === 'sync_standby') === on, { timeoutMs: 30_000, everyMs: 200 })
    },
    async stallReplication(leader) {
      const c = new pg.Client({ connectionString: cluster.nodeUrl(leader) })
      await c.connect()
      const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_replication').finally(() => c.end())
      if (!rows.length) throw new Error(`${leader} has no WAL sender: is it the leader, with a streaming replica?`)
      for (const r of rows) signal(r.pid, 'SIGSTOP')
      return () => {
        for (const r of rows) signal(r.pid, 'SIGKILL')
      }
    },
    restart(name) {
      startPatroni(byName(name))
    },
    async settled(count, guardMs = 90_000) {
      let leader: string | undefined
      await waitFor(
        `the cluster settled with ${count} member(s)`,
        async () => {
          const m = await members()
          const running = m.filter((x) => x.state === 'running' || x.state === 'streaming')
          leader = running.find((x) => x.role === 'leader')?.name
          if (!leader || running.length < count) return false
          if (synchronous && count > 1 && !running.some((x) => x.role === 'sync_standby')) return false
          return canWrite(cluster.url)
        },
        { timeoutMs: guardMs, everyMs: 200 },
      ).catch((err) => {
        throw new Error(`${(err as Error).message}\n${output.slice(-6000)}`)
      })
      return leader as string
    },
    log: () => output,
    async stop() {
      const haproxy = children.find((c) => c.spawnargs.includes(haConfig))
      haproxy?.kill('SIGKILL')
      // The data goes with the folder: nothing to shut down cleanly.
      for (const node of nodes) {
        signal(node.patroni?.pid, 'SIGKILL')
        const postmaster = postmasterPid(node)
        signal(postmaster, 'SIGKILL')
        await waitFor('postmaster ending', () => !alive(postmaster), { timeoutMs: 10_000 }).catch(() => {})
      }
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
      await Promise.all(children.map(exited))
      process.off('exit', killPostmasters)
      rmSync(dir, { recursive: true, force: true })
    },
  }

  try {
    await waitFor(
      'etcd answering',
      async () =>
        fetch(`http://127.0.0.1:${etcdClient}/health`)
          .then((r) => r.ok)
          .catch(() => false),
      { timeoutMs: 30_000 },
    )
    // Both at once: the one that takes etcd's initialize key runs initdb, the other copies it.
    startPatroni(nodes[0])
    startPatroni(nodes[1])
    collect('haproxy', spawn(parts.haproxy, ['-f', haConfig, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] }))
    await cluster.settled(2)
  } catch (err) {
    await cluster.stop()
    throw new Error(`the Patroni cluster did not start: ${(err as Error).message}\n${output.slice(-6000)}`)
  }
  return cluster
}

/** Whether a write commits on `url` now (not a replica, not read-only). */
export async function canWrite(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 2000 })
  c.on('error', () => {})
  try {
    await c.connect()
    await c.query('create table if not exists ha_probe (at timestamptz primary key default clock_timestamp())')
    await c.query('insert into ha_probe default values')
    return true
  } catch {
    return false
  } finally {
    await c.end().catch(() => {})
  }
}
