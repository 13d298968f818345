// Two users on one machine: another program holds the embedded server's port. Unset, aizk takes
// the next free port and records it in the data folder, where every later process finds it; a
// port the operator named is refused in one line (exit 6). A real listener holds the port.
import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { lastFrameOf, runInPty, stripAnsi } from '../support/pty.js'

const DEFAULT_PORT = 54329
const listeners: net.Server[] = []
const dataDirs: string[] = []

/** Listen on 127.0.0.1:port; resolves false when someone else already holds it. */
function occupy(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.destroy())
    server.once('error', () => resolve(undefined))
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      listeners.push(server)
      resolve(server)
    })
  })
}

async function occupyAnyPort(): Promise<number> {
  const server = await occupy(0)
  assert.ok(server)
  return (server.address() as net.AddressInfo).port
}

function scratchDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-port-test-'))
  // As root the server runs as `postgres`, which must reach the folder.
  chmodSync(dir, 0o755)
  dataDirs.push(dir)
  return dir
}

/** Whether anything accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

before(async () => {
  // Hold the default port; when another aizk on this machine already holds it, so much the better.
  await occupy(DEFAULT_PORT)
  assert.ok(await listening(DEFAULT_PORT), 'the default port is taken for this test')
})

after(async () => {
  for (const dir of dataDirs) {
    await runCli(['server', 'stop'], { env: { AIZK_DATA_DIR: dir } })
    rmSync(dir, { recursive: true, force: true })
  }
  for (const server of listeners) server.close()
})

describe('embedded server port taken by another program', () => {
  it('without AIZK_EMBEDDED_PORT: takes a free port, records it, and every process finds it there', async () => {
    const dataDir = scratchDataDir()
    const env = { AIZK_DATA_DIR: dataDir }
    const started = await runCli(['server', 'start', '--json'], { env, timeoutMs: 120_000 })
    assert.equal(started.code, 0, started.stderr)
    const { port, started: didStart } = JSON.parse(started.stdout)
    assert.equal(didStart, true)
    assert.notEqual(port, DEFAULT_PORT)
    assert.match(started.stderr, new RegExp(`started embedded PostgreSQL .* on 127\\.0\\.0\\.1:${port}`))
    assert.equal(JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')).port, port)
    // Another process of this user: the same server, found through the data folder.
    const status = await runCli(['server', 'status', '--json'], { env })
    assert.equal(status.code, 0, status.stderr)
    assert.deepEqual({ running: JSON.parse(status.stdout).running, port: JSON.parse(status.stdout).port }, { running: true, port })
    const jobs = await runCli(['jobs', '--json'], { env, timeoutMs: 120_000 })
    assert.equal(jobs.code, 0, jobs.stderr)
    assert.doesNotMatch(jobs.stderr, /started embedded/)
  })

  it('with AIZK_EMBEDDED_PORT on a taken port: one line naming the port and the way out, exit 6, nothing created', async () => {
    const taken = await occupyAnyPort()
    const dataDir = scratchDataDir()
    const res = await runCli(['server', 'start'], { env: { AIZK_DATA_DIR: dataDir, AIZK_EMBEDDED_PORT: String(taken) } })
    assert.equal(res.code, 6, res.stderr)
    const lines = res.stderr.trim().split('\n')
    assert.equal(lines.length, 1, res.stderr)
    assert.match(lines[0], new RegExp(`^error: port ${taken} on 127\\.0\\.0\\.1 is taken by another program.*set AIZK_EMBEDDED_PORT to a free port`))
    assert.equal(existsSync(path.join(dataDir, 'server.json')), false)
    const json = await runCli(['server', 'start', '--json'], { env: { AIZK_DATA_DIR: dataDir, AIZK_EMBEDDED_PORT: String(taken) } })
    assert.equal(json.code, 6)
    assert.equal(JSON.parse(json.stdout).error.code, 'conflict')
  })

  it('the live view of a worker that cannot get its database never shows it as ok', async () => {
    const taken = await occupyAnyPort()
    const dataDir = scratchDataDir()
    const env = cleanEnv({ AIZK_DATA_DIR: dataDir, AIZK_EMBEDDED_PORT: String(taken), AIZK_WORKER_NO_SCHEDULER: 'true' })
    const run = runInPty([process.execPath, 'bin/run.js', 'worker'], { cwd: repoRoot, env })
    const code = await run.exited
    const raw = run.output()
    assert.equal(code, 6, raw)
    const frame = lastFrameOf(raw, 'aizk worker')
    assert.match(frame, /db connecting/)
    assert.doesNotMatch(stripAnsi(raw), /db ok/)
    assert.match(stripAnsi(raw), new RegExp(`error: port ${taken} on 127\\.0\\.0\\.1 is taken`))
  })
})
