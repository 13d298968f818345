// The embedded server path, exercised even when AIZK_TEST_DATABASE_URL is set: a scratch data
// folder and port of this test's own; start, reuse by other processes, recovery, stop.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { waitFor } from '../support/wait-for.js'

let dataDir: string
let env: Record<string, string>

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

function postmasterPid(): number {
  return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Server processes of this data folder (the postmaster and its children). */
function serverProcesses(): number[] {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
  const ours = out.split('\n').filter((l) => l.includes(`-D ${path.join(dataDir, 'pg')}`))
  return ours.map((l) => Number(l.trim().split(/\s+/)[0]))
}

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'aizk-embedded-test-'))
  execFileSync('chmod', ['755', dataDir])
  env = { AIZK_DATA_DIR: dataDir, AIZK_EMBEDDED_PORT: String(await freePort()) }
})

after(async () => {
  await runCli(['server', 'stop'], { env })
  if (!process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true })
})

describe('embedded PostgreSQL', () => {
  it('is absent before first use', async () => {
    const res = await runCli(['server', 'status', '--json'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).initialised, false)
  })

  it('starts on first use once, even when two commands race, and announces itself', async () => {
    const [a, b] = await Promise.all([runCli(['install', '--json'], { env, timeoutMs: 120_000 }), runCli(['install', '--json'], { env, timeoutMs: 120_000 })])
    assert.equal(a.code, 0, `${a.stderr}${a.stdout}`)
    assert.equal(b.code, 0, `${b.stderr}${b.stdout}`)
    const announcements = [a.stderr, b.stderr].filter((s) => /started embedded PostgreSQL 15\.18\.0 in .* on 127\.0\.0\.1:\d+/.test(s))
    assert.equal(announcements.length, 1, 'exactly one process started the server')
    assert.equal(serverProcesses().filter((pid) => pid === postmasterPid()).length, 1)
  })

  it('runs from a copy of the binaries in its data folder, so it outlives the checkout that started it', () => {
    const exe = readlinkSync(`/proc/${postmasterPid()}/exe`)
    assert.ok(exe.startsWith(`${dataDir}${path.sep}`), `the postmaster runs ${exe}`)
  })

  it('is reused by the next command: same server, nothing to install', async () => {
    const pid = postmasterPid()
    const res = await runCli(['install'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /nothing to do/)
    assert.doesNotMatch(res.stderr, /started embedded/)
    assert.equal(postmasterPid(), pid)
  })

  it('recovers after the server was killed (stale postmaster.pid)', async () => {
    const pid = postmasterPid()
    process.kill(pid, 'SIGKILL')
    await waitFor('the server', () => serverProcesses().length === 0)
    const res = await runCli(['install'], { env, timeoutMs: 120_000 })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stderr, /started embedded/)
    assert.notEqual(postmasterPid(), pid)
    assert.ok(alive(postmasterPid()))
  })

  it('restarts a server left running on binaries that were since deleted (an older aizk, a deleted checkout)', async () => {
    const stop = await runCli(['server', 'stop'], { env })
    assert.equal(stop.code, 0, stop.stderr)
    // Start it as an older aizk did, from binaries outside the data folder's copy, then delete them.
    const doomed = path.join(dataDir, 'doomed-checkout')
    execFileSync('cp', ['-a', path.join(dataDir, 'postgres-15.18.0'), doomed])
    const pgData = path.join(dataDir, 'pg')
    const owner = statSync(pgData)
    const port = JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')).port
    execFileSync(
      path.join(doomed, 'bin', 'pg_ctl'),
      ['start', '-D', pgData, '-l', path.join(pgData, 'doomed.log'), '-w', '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`],
      {
        uid: owner.uid,
        gid: owner.gid,
        cwd: '/',
      },
    )
    rmSync(doomed, { recursive: true, force: true })
    assert.match(readlinkSync(`/proc/${postmasterPid()}/exe`), / \(deleted\)$/)
    const res = await runCli(['install'], { env, timeoutMs: 120_000 })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stderr, /runs on binaries that were deleted; restarting it/)
    assert.ok(readlinkSync(`/proc/${postmasterPid()}/exe`).startsWith(`${dataDir}${path.sep}`))
  })

  it('recovers from a start lock left by a killed process', async () => {
    const stop = await runCli(['server', 'stop'], { env })
    assert.equal(stop.code, 0, stop.stderr)
    writeFileSync(path.join(dataDir, 'server.lock'), '999999')
    const res = await runCli(['server', 'start', '--json'], { env, timeoutMs: 120_000 })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).started, true)
  })

  it('stops with `aizk server stop`', async () => {
    const res = await runCli(['server', 'stop'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /stopped/)
    const status = JSON.parse((await runCli(['server', 'status', '--json'], { env })).stdout)
    assert.equal(status.running, false)
    assert.equal(status.initialised, true)
  })
})
