/**
 * The base every command extends: a `--json` flag, settings loaded once, the database opened on
 * demand, and the one place that renders errors and turns them into exit codes
 * (docs/architecture.md#errors-and-exit-codes).
 */
import { Command, Flags, Errors } from '@oclif/core'
import type { Database, OpenOptions } from '../db/database.js'
import { AizkError, ExitCode } from '../errors.js'
import type { ParseOptions, Settings } from '../settings.js'
import { loadCliSettings } from './load-settings.js'

export abstract class AizkCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({ description: 'Print one JSON document instead of text.', default: false }),
  }

  private openDatabases: Database[] = []
  private settingsCache?: Settings

  protected get jsonOutput(): boolean {
    return this.argv.includes('--json')
  }

  /** Job modules register their settings first, so settings are validated all together. The first call's overrides win. */
  protected async settings(opts: Omit<ParseOptions, 'registry'> = {}): Promise<Settings> {
    if (this.settingsCache) return this.settingsCache
    const { settings, unknown } = await loadCliSettings(process.env, opts)
    this.settingsCache = settings
    for (const name of unknown) {
      const chalk = await loadChalk()
      this.logToStderr(chalk.yellow(`aizk: warning: ${name} is not an aizk setting (see \`aizk settings\`)`))
    }
    return this.settingsCache
  }

  protected async database(opts: OpenOptions = {}): Promise<Database> {
    const settings = await this.settings()
    // pg and the embedded server's code load only in commands that open the database.
    const { loadPg } = await import('../db/load-pg.js')
    await loadPg()
    const { openDatabase } = await import('../db/database.js')
    const db = await openDatabase(settings, { log: (line) => this.logToStderr(line), ...opts })
    this.openDatabases.push(db)
    return db
  }

  protected printJson(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    for (const db of this.openDatabases.splice(0)) await db.close().catch(() => {})
    return super.finally(err)
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    let exitCode: number = ExitCode.internal
    let code = 'internal'
    let hint: string | undefined
    let message = err.message
    if (err instanceof AizkError) {
      exitCode = err.exitCode
      code = err.code
      hint = err.hint
      // A flag builder's error (src/cli/flags.ts) comes wrapped by oclif's parser: keep its own words.
      message = message.replace(/^Parsing --\S+ \n\t/, '').replace(/\nSee more help with --help$/, '')
    } else if (err.oclif?.exit !== undefined) {
      // oclif's own parse errors: unknown flag, missing argument, bad option value.
      exitCode = ExitCode.usage
      code = 'usage'
      message = parseErrorMessage(message)
      hint = `see \`aizk ${this.id?.replaceAll(':', ' ') ?? ''} --help\``
    } else if (process.env.AIZK_DEBUG) {
      message = err.stack ?? message
    }
    for (const db of this.openDatabases.splice(0)) await db.close().catch(() => {})
    if (this.jsonOutput) {
      this.printJson({ error: { code, exitCode, message, hint: hint ?? null, details: err instanceof AizkError ? (err.details ?? null) : null } })
    } else {
      const chalk = await loadChalk()
      process.stderr.write(`${chalk.red('error:')} ${message}\n`)
      if (hint) process.stderr.write(`${chalk.dim('hint:')} ${hint}\n`)
    }
    this.exit(exitCode)
  }
}

/** chalk only when something is printed in colour: a command that succeeds never loads it. */
async function loadChalk() {
  return (await import('chalk')).default
}

/**
 * oclif's parse error on one line with its reason: "Parsing --priority" is followed by what was
 * wrong ("Expected an integer but received: abc"), "Missing 1 required arg:" by the argument.
 * oclif's own "See more help" line is dropped: the hint says where help is.
 */
export function parseErrorMessage(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help/i.test(l))
  if (lines.length <= 1) return lines[0] ?? message
  const [head, ...rest] = lines
  return `${head.replace(/:$/, '')}: ${rest.join('; ')}`
}
