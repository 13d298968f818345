/** Spawn the real CLI (bin/run.js over dist/) and collect its output and exit code. */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const binPath = path.join(repoRoot, 'bin', 'run.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Colour switches: node's test runner sets FORCE_COLOR=1 in every test file when its output is a terminal. */
const COLOUR_VARIABLES = new Set(['FORCE_COLOR', 'NO_COLOR'])

/**
 * Environment without any AIZK_* the developer's shell or CI may carry, without CI's own
 * variables and without colour switches: the commands under test behave as on an operator's
 * machine (a live view in a pseudo-terminal, plain text into a pipe), whether or not the suite
 * runs in CI or in a terminal. A test that wants colour passes FORCE_COLOR in `extra`.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('AIZK_') && !COLOUR_VARIABLES.has(k) && k !== 'CI' && k !== 'CONTINUOUS_INTEGRATION' && !k.startsWith('CI_')) env[k] = v
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}

/** `bin`: another build's bin/run.js (the previous release's, test/support/previous-release.ts). */
export function runCli(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; bin?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? binPath, ...args], { env: cleanEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? 1, stdout, stderr })
    })
    child.stdin.end(opts.input ?? '')
  })
}
