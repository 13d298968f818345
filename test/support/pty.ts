/**
 * Run a command inside a real pseudo-terminal (script(1) from util-linux), sized so ink lays
 * out as on an operator's screen, and collect everything it drew.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { after } from 'node:test'
import { cleanEnv } from './cli.js'

/** Terminals still running: a test that failed before its command ended leaves them to this. */
const running = new Set<ChildProcess>()
// Killed when the file's tests are done, so a failed wait cannot keep the file (and its child) alive to its timeout.
after(() => {
  for (const child of running) child.kill('SIGKILL')
})

export interface PtyRun {
  child: ChildProcess
  /** Everything drawn so far (escape codes included). */
  output(): string
  /** Resolves with the exit code of script (the command's own). */
  exited: Promise<number>
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

export function runInPty(argv: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; cols?: number; rows?: number } = {}): PtyRun {
  const command = `stty cols ${opts.cols ?? 120} rows ${opts.rows ?? 60}; exec ${argv.map(shellQuote).join(' ')}`
  // -e: exit with the child's code; -f: flush as it comes; -q: no banner. The session log goes to
  // /dev/null; what we read is script's own stdout, which copies the terminal.
  // Without an env, cleanEnv's: no colour switch the test runner set leaks into the terminal.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: opts.env ?? cleanEnv(), cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => {
    out += d
  })
  child.stderr?.on('data', (d) => {
    out += d
  })
  running.add(child)
  const exited = new Promise<number>((resolve) =>
    child.on('close', (code) => {
      running.delete(child)
      resolve(code ?? 1)
    }),
  )
  return { child, output: () => out, exited }
}

/** The text without colours and cursor movement. */
export function stripAnsi(text: string): string {
  return text.replace(CSI, '').replace(OSC, '').replace(/\r/g, '')
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what we strip
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what we strip
const OSC = /\u001b\][^\u0007]*\u0007/g

/** The last frame ink drew that starts with `marker` (frames are redrawn in place). */
export function lastFrameOf(raw: string, marker: string): string {
  const text = stripAnsi(raw)
  const at = text.lastIndexOf(marker)
  return at < 0 ? '' : text.slice(at)
}
