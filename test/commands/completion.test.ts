/**
 * Shell completion through @oclif/plugin-autocomplete, run as an operator would (`aizk
 * autocomplete bash|zsh` in a fresh home): bash's generated function is sourced and called the
 * way bash calls it on Tab; zsh's script must offer the registered entrypoints as values of
 * every --entrypoint flag. Needs no database.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../support/cli.js'
import { cliJobsModule } from '../support/commands/env.js'

let home: string
let env: Record<string, string>
const cache = () => path.join(home, '.cache', 'aizk', 'autocomplete')

before(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'aizk-completion-'))
  env = { HOME: home, XDG_CACHE_HOME: path.join(home, '.cache'), AIZK_WORKER_JOB_MODULES: cliJobsModule }
})
after(() => {
  rmSync(home, { recursive: true, force: true })
})

/** What bash offers for the words typed so far (the last one is being completed). */
function bashComplete(words: string[]): string[] {
  const script = path.join(cache(), 'functions', 'bash', 'aizk.bash')
  const quoted = words.map((w) => `'${w}'`).join(' ')
  const out = execFileSync(
    'bash',
    ['-c', `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _aizk_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`],
    {
      encoding: 'utf8',
    },
  )
  return out.split('\n').filter(Boolean).sort()
}

describe('shell completion', () => {
  it('prints setup instructions and builds the scripts', async () => {
    const res = await runCli(['autocomplete', 'bash'], { env })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /aizk autocomplete script bash/)
    const zsh = await runCli(['autocomplete', 'zsh'], { env })
    assert.equal(zsh.code, 0, zsh.stderr)
    const script = await runCli(['autocomplete', 'script', 'bash'], { env })
    assert.match(script.stdout, /AIZK_AC_BASH_SETUP_PATH=.*bash_setup/)
  })

  it('bash completes commands, subcommands and flags', () => {
    assert.deepEqual(bashComplete(['aizk', 'dis']), ['discard'])
    assert.deepEqual(bashComplete(['aizk', 'pa']), ['pause'])
    assert.ok(bashComplete(['aizk', 'jobs', 's']).includes('show'))
    assert.deepEqual(bashComplete(['aizk', 'cancel', '--r']), ['--running'])
    assert.deepEqual(bashComplete(['aizk', 'discard', '--ol']), ['--older-than'])
  })

  it('zsh offers the registered entrypoints as --entrypoint values, and the flags stay free text', async () => {
    const zsh = readFileSync(path.join(cache(), 'functions', 'zsh', '_aizk'), 'utf8')
    const specs = zsh.split('\n').filter((l) => /--entrypoint\}?"\[/.test(l))
    assert.ok(specs.length >= 3, 'requeue, discard and cancel each have one')
    for (const spec of specs) {
      const options = /options:\(([^)]*)\)/.exec(spec)?.[1].split(' ') ?? []
      for (const ep of ['aizk_usage_event', 'aizk_convert_artifact', 'cli_noop', 'cli_strict']) assert.ok(options.includes(ep), `${ep} in ${spec}`)
    }
    for (const command of ['discard', 'cancel', 'pause', 'resume', 'requeue']) assert.match(zsh, new RegExp(`"${command}\\[`))
    assert.match(zsh, /"show\[One job's story/)
    // Completion lists names; it does not restrict them (a Python-only entrypoint still parses).
    // (--limit 0 stops the command after parsing, before any database is needed.)
    const free = await runCli(['requeue', '--entrypoint', 'py_only', '--limit', '0'], { env })
    assert.equal(free.code, 2)
    assert.match(free.stderr, /error: --limit must be a whole number of at least 1, got 0/)
  })
})
