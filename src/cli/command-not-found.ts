/**
 * oclif's `command_not_found` hook: an unknown command is a usage error like any other, printed
 * in the one `error:` / `hint:` shape (or the JSON error document under --json), exit 2.
 */
import { Errors, type Hook } from '@oclif/core'
import chalk from 'chalk'
import { ExitCode } from '../errors.js'
import { suggest } from '../operator/did-you-mean.js'

const commandNotFound: Hook<'command_not_found'> = async (opts) => {
  const shown = (id: string) => id.replaceAll(':', ' ')
  const name = shown(opts.id)
  const near = suggest(name, opts.config.commandIDs.map(shown))
  const message = `unknown command "${name}"`
  const hint = near.length ? `did you mean ${near.map((n) => `\`aizk ${n}\``).join(' or ')}? See \`aizk --help\`` : 'see `aizk --help` for the commands'
  if ((opts.argv ?? []).includes('--json')) {
    process.stdout.write(`${JSON.stringify({ error: { code: 'usage', exitCode: ExitCode.usage, message, hint, details: null } }, null, 2)}\n`)
  } else {
    process.stderr.write(`${chalk.red('error:')} ${message}\n${chalk.dim('hint:')} ${hint}\n`)
  }
  throw new Errors.ExitError(ExitCode.usage)
}

export default commandNotFound
