/**
 * The README's quick start and "Your first job", run as written (their lines are read from the
 * README, so the test follows the text): a note stored in a new scope set is answered by
 * `aizk recall`, and the job module declared there, registered through AIZK_WORKER_JOB_MODULES,
 * is enqueued with its payload checked and run by a real worker.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { repoRoot, runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { startWorker, type WorkerWithLines } from '../support/worker-process.js'

let readme: string
const db = await fileDatabase()
let dir: string
const workers: WorkerWithLines[] = []

before(async () => {
  readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8')
  // Inside the checkout, so the module's `import ... from 'aizk'` finds the package itself.
  dir = await mkdtemp(path.join(repoRoot, '.readme-example-'))
})
db.beforeDrop(async () => {
  for (const w of workers) await w.kill()
  await rm(dir, { recursive: true, force: true })
})

/** The section's text, from its heading to the next. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  assert.ok(start >= 0, `the README has a "${heading}" section`)
  const end = readme.indexOf('\n## ', start + 4)
  return readme.slice(start, end < 0 ? undefined : end)
}

/** The line of `text` that starts with `prefix` (leading spaces aside). */
function line(text: string, prefix: string): string {
  const found = text.split('\n').find((l) => l.trimStart().startsWith(prefix))
  assert.ok(found, `a line starting with ${prefix}`)
  return found.replace(/\s+#.*$/, '').trim()
}

/** A shell line's words after `npx aizk`, quotes removed ($SCOPE replaced). */
function aizkArgs(shell: string, vars: Record<string, string> = {}): string[] {
  const words = [...shell.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3])
  assert.deepEqual(words.slice(0, 2), ['npx', 'aizk'])
  return words.slice(2).map((w) => w.replace(/\$(\w+)/g, (_, name: string) => vars[name] ?? `$${name}`))
}

function worker(env: Record<string, string> = {}): WorkerWithLines {
  const w = startWorker({ AIZK_DATABASE_URL: db.url, AIZK_CHUNK_RECOVERY_ENABLED: 'false', AIZK_CLEANUP_ENABLED: 'false', ...env })
  workers.push(w)
  return w
}

describe("the README's examples", () => {
  it('quick start: a note stored in a new scope set is what recall answers from', async () => {
    const quick = section('Quick start')
    assert.match(line(quick, 'SCOPE='), /crypto\.randomUUID\(\)/)
    const note = line(quick, 'printf').match(/^printf '(.*)' > (\S+)$/)
    assert.ok(note, 'the printf line writes the note')
    await writeFile(path.join(dir, note[2]), note[1].replace(/\\n/g, '\n'))
    const scope = randomUUID()
    const env = { AIZK_DATABASE_URL: db.url }
    const ingestArgs = aizkArgs(line(quick, 'npx aizk ingest'), { SCOPE: scope })
    ingestArgs[1] = path.join(dir, ingestArgs[1])
    const ingest = await runCli(ingestArgs, { env })
    assert.equal(ingest.code, 0, ingest.stderr)
    worker()
    const recallArgs = aizkArgs(line(quick, 'npx aizk recall'), { SCOPE: scope })
    const answer = await waitFor(
      'recall to answer from the note',
      async () => {
        const res = await runCli(recallArgs, { env })
        assert.equal(res.code, 0, res.stderr)
        return /claim\s+Ian Murdock —found→ Debian/.test(res.stdout) ? res.stdout : undefined
      },
      120_000,
    )
    assert.match(answer, /from note\.md/)
  })

  it('your first job: declared, registered through AIZK_WORKER_JOB_MODULES, enqueued and run', async () => {
    const first = section('Your first job')
    const code = first.match(/```js\n([\s\S]*?)```/)?.[1]
    assert.ok(code, 'the section declares the job in a js block')
    const file = line(first, 'export AIZK_WORKER_JOB_MODULES=').split('=')[1]
    await writeFile(path.join(dir, file), code)
    const env = { AIZK_DATABASE_URL: db.url, AIZK_WORKER_JOB_MODULES: path.join(dir, file) }
    const w = worker({ AIZK_WORKER_JOB_MODULES: env.AIZK_WORKER_JOB_MODULES })
    const res = await runCli(aizkArgs(line(first, 'npx aizk enqueue')), { env, timeoutMs: 120_000 })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /^enqueued job (\d+) \(greet, priority 0\)\njob \1 succeeded\n$/)
    await waitFor("the handler's line", () => /hello, Ada \(job \d+\)/.test(w.stderr()))
    const bad = await runCli(['enqueue', 'greet', '--payload', '{"name":1}'], { env })
    assert.equal(bad.code, 2, 'enqueue checks the payload against the declared schema')
  })
})
