#!/usr/bin/env node
// The test command: prepares one migrated template database, then runs every test file with
// node's test runner; each file clones its own database from the template.
// AIZK_TEST_DATABASE_URL selects the server (CI: the machine's PostgreSQL); unset, this user's
// embedded test server is used (its data folder in the temp folder, named by the user id; its
// port chosen free, or AIZK_EMBEDDED_PORT), and stopped when the last of the user's concurrent
// runs ends (test/support/test-server.mjs). Databases are named by user, machine and run, and
// cleaned up by test/support/run-databases.mjs.
import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { dropStale, runPrefix } from './support/run-databases.mjs'
import { acquireTestServer } from './support/test-server.mjs'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const embedded = await import(path.join(root, 'dist/db/embedded.js'))
const lock = await import(path.join(root, 'dist/db/embedded-lock.js'))
const { migrate } = await import(path.join(root, 'dist/db/migrate.js'))

let baseUrl = process.env.AIZK_TEST_DATABASE_URL
let testServer
if (!baseUrl) {
  const dataDir = path.join(os.tmpdir(), `aizk-test-server-${process.getuid?.() ?? os.userInfo().username}`)
  const port = Number(process.env.AIZK_EMBEDDED_PORT) || undefined
  testServer = await acquireTestServer({ dataDir, port, log: (l) => console.error(l), env: process.env, embedded, lock }).catch((err) => {
    // aizk's own errors (a taken port, missing binaries) are one line and an exit code, as in the CLI.
    if (err.exitCode === undefined) throw err
    console.error(`error: ${err.message}${err.hint ? ` (${err.hint})` : ''}`)
    process.exit(err.exitCode)
  })
  baseUrl = testServer.server.url
  console.error(`tests use the embedded server in ${dataDir} on port ${testServer.server.port}`)
}

const prefix = runPrefix(process.pid)
const template = `${prefix}_template`
const admin = new pg.Client({ connectionString: withDb(baseUrl, 'postgres') })
await admin.connect()
await dropStale(admin)
await admin.query(`create database ${template}`)
const tpl = new pg.Client({ connectionString: withDb(baseUrl, template) })
await tpl.connect()
await migrate(tpl, { appRole: process.env.AIZK_APP_ROLE ?? 'aizk_app' })
await tpl.end()

const args = process.argv.slice(2)
const files = args.length ? args : findTests(path.join(root, 'test'))
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    './test/support/no-colour.mjs',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${process.env.AIZK_TEST_CONCURRENCY ?? 3}`,
    '--test-timeout=900000',
    ...files,
  ],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...withoutCiVariables(process.env), AIZK_TEST_BASE_URL: baseUrl, AIZK_TEST_TEMPLATE: template, AIZK_TEST_DATABASE_PREFIX: prefix },
  },
)
// Ctrl-C reaches the test runner too (one process group): wait for it to end, then clean up.
process.on('SIGINT', () => {})
process.on('SIGTERM', () => child.kill('SIGTERM'))
const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)))
await admin.query(`drop database if exists ${template} with (force)`)
await admin.end()
if (testServer) {
  const stopped = await testServer.release()
  console.error(
    stopped
      ? 'stopped the embedded test server (no other test run of this user uses it)'
      : 'left the embedded test server running: another test run of this user uses it',
  )
}
process.exit(code)

// ink draws only its last frame when it sees a CI variable, and the live views' tests assert
// live drawing; every command the tests spawn drops these variables too (test/support/cli.ts).
function withoutCiVariables(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && k !== 'CONTINUOUS_INTEGRATION' && !k.startsWith('CI_')))
}

function withDb(url, db) {
  const u = new URL(url)
  u.pathname = `/${db}`
  return u.toString()
}

function findTests(dir) {
  const out = []
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) out.push(...findTests(full))
    else if (/\.test\.tsx?$/.test(name)) out.push(path.relative(root, full))
  }
  return out
}
