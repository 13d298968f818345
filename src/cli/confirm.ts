/** Questions on a terminal. Commands ask only when stdin and stderr are TTYs. */
import readline from 'node:readline/promises'

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
