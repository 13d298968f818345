/** Questions on a terminal. Commands ask only when stdin and stderr are TTYs. */
import os from 'node:os'
import readline from 'node:readline/promises'
import { UsageError } from '../errors.js'

export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY)
}

/** Ask a question on stderr; returns the trimmed, lower-cased answer ('' on end of input). */
export async function ask(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr })
  try {
    return (await rl.question(question)).trim().toLowerCase()
  } catch {
    return ''
  } finally {
    rl.close()
  }
}

/** A yes/no question; anything but y/yes is no. */
export async function confirm(question: string): Promise<boolean> {
  const answer = await ask(`${question} [y/N] `)
  return answer === 'y' || answer === 'yes'
}

/**
 * Ask before a change that cannot be undone: on a terminal (and not --json) the operator answers;
 * elsewhere `--yes` must be given, or nothing happens and the command exits 2.
 */
export async function confirmOrRequireYes(question: string, o: { yes: boolean; json: boolean; what: string }): Promise<boolean> {
  if (o.yes) return true
  if (isInteractive() && !o.json) return confirm(question)
  throw new UsageError(`${o.what}: not confirmed`, 'there is no terminal to ask on: pass --yes to go ahead, or --dry-run to see what it would do')
}

/** Who runs this command (user@host), kept in the log rows and pause rows it writes. */
export function operatorName(): string {
  let user = process.env.USER ?? 'unknown'
  try {
    user = os.userInfo().username
  } catch {
    // No passwd entry (some containers): keep $USER.
  }
  return `${user}@${os.hostname()}`
}
